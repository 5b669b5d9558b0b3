module github.com/josebench/josebench

go 1.26

require (
	github.com/google/uuid v1.6.0
	gopkg.in/yaml.v3 v3.0.1
)
