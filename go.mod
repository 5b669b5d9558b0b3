module github.com/josebench/josebench

go 1.26

require (
	github.com/google/uuid v1.6.0
	gopkg.in/yaml.v3 v3.0.1
)

require github.com/decred/dcrd/dcrec/secp256k1/v4 v4.4.1
