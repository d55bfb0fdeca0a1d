module github.com/archai-go/archai

go 1.26

require (
	github.com/mlange-42/arche v0.15.3 // indirect
	github.com/mlange-42/arche-model v0.10.0 // indirect
	github.com/stretchr/testify v1.11.1 // indirect
	gonum.org/v1/gonum v0.17.0 // indirect
)
