module github.com/archai-go/archai

go 1.26

require (
	github.com/mlange-42/arche v0.15.3
	github.com/mlange-42/arche-model v0.10.0
	github.com/mlange-42/arche-serde v0.2.1
	github.com/stretchr/testify v1.11.1
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/davecgh/go-spew v1.1.1 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	golang.org/x/exp v0.0.0-20230418202329-0354be287a23 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
