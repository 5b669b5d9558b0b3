// Command jose makes keys and tokens from the shell: a thin command line
// over the josebench JOSE library (packages jose, jose/jws, jose/jwe and
// jose/jwt).
//
// Usage:
//
//	jose key generate --kty oct|RSA|EC|OKP|AKP [--size BITS] [--crv CRV] [--alg ALG] [--use sig|enc] [--kid KID]
//	jose key public|thumbprint|analyze|convert [flags] [FILE]
//	jose set generate|add|remove|public|rotate [flags] [FILE]
//	jose sign --alg ALG (--key FILE [--kid KID] | --secret-file FILE | --secret-env NAME) [--header NAME=VALUE]... [--detached] [--json]
//	jose verify --alg ALG[,ALG] (--key FILE | --secret-file FILE | --secret-env NAME) [--payload FILE] [TOKEN]
//	jose encrypt --alg ALG --enc ENC --key FILE [--kid KID] [--header NAME=VALUE]... [--zip] [--json]
//	jose decrypt --alg ALG[,ALG] --enc ENC[,ENC] --key FILE
//	jose jwt issue --alg ALG --key FILE [--iss] [--sub] [--aud] [--exp WHEN] [--nbf WHEN] [--claims JSON] [--typ TYP] [--enc-alg ALG --enc ENC --enc-key FILE]
//	jose jwt validate --alg ALG[,ALG] --key FILE (--aud AUD | --any-audience) [--iss] [--sub] [--typ] [--leeway D] [--require CLAIM,...] [--no-exp] [--enc-alg ... --enc ... --enc-key FILE]
//	jose dpop proof --key FILE --method METHOD --url URL [--alg ALG] [--access-token FILE] [--nonce NONCE]
//	jose dpop thumbprint --key FILE
//	jose inspect [FILE]
//	jose help [command [subcommand]]
//	jose version (or jose --version)
//
// Keys are JWK or JWK Set files (or PEM where a command says so); "-" or no
// file means standard input, and an empty argument or file flag (an empty
// "$(cat missing)") is refused rather than read as standard input. A TOKEN argument that names no file and is a
// well-formed JWS or JWE is the token itself, as pasted. For HMAC, a raw
// shared secret is read from a file (--secret-file) or an environment
// variable (--secret-env), never from the command line. Errors name the
// file or flag at fault and what to do, in one line. Data goes to standard output; messages,
// prefixed "jose:", go to standard error. Before reading standard input
// from a terminal, the command says so on standard error. What it prints
// of a token or key shows what is there: control characters, Unicode
// format characters (bidirectional controls, zero-width characters),
// U+2028/U+2029 and the other characters Unicode says to show as nothing
// (variation selectors, Hangul fillers) are escaped, in JSON as \uXXXX; a verified payload or
// decrypted plaintext is written as it is, except to a terminal. The exit status is 0 on success,
// 1 on failure (a token that does not verify, a weakness found, bad input)
// and 2 for a usage error.
//
// What the command reads is bounded before it is parsed: key and set files
// to 8 MiB, payloads and plaintexts to 64 MiB, tokens to the library's
// jose.DefaultMaxTokenSize (1 MiB). Everything else is bounded by the
// library's default jose.Limits, which verify, decrypt and inspect apply as
// the library does; inspect counts a compact token's dots before splitting
// it and refuses more than jose.DefaultMaxSignatures signatures or
// jose.DefaultMaxRecipients recipients.
package main

import "os"

func main() {
	os.Exit(run(os.Stdin, os.Stdout, os.Stderr, os.Args[1:]))
}
