module github.com/archai-go/archai/cmd/bench/compare

go 1.26

require (
	github.com/archai-go/archai v0.0.0
	github.com/joeycumines/go-behaviortree v1.11.0
)

require github.com/joeycumines/go-bigbuff v1.21.0 // indirect

replace github.com/archai-go/archai => ../../..
