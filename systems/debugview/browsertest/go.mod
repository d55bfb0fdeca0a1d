module github.com/archai-go/archai/systems/debugview/browsertest

go 1.26

require (
	github.com/archai-go/archai v0.0.0
	github.com/chromedp/chromedp v0.23.0
	github.com/mlange-42/arche v0.15.3
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	golang.org/x/sys v0.46.0 // indirect
)

replace github.com/archai-go/archai => ../../..
