// Package keytext writes the one sentence by which jwa, jws, jwe and the
// key checks of jose refuse a key for its algorithms: what the key is, then
// what each algorithm needs, "the key is a P-256 ECDSA public key; ES384
// needs a P-384 ECDSA key". What a key is comes from jwa.DescribeKey, what
// an algorithm needs from its KeyNeeds method; the sentence is written here
// once.
package keytext

import "strings"

// Refusal returns "the key is desc; A needs N", one clause for each need
// of needs (which holds one for each of algs), the algorithms that need
// the same written together: "RS256 and PS256 need an RSA key of at least
// 2048 bits". The needs keep the order of their first algorithm.
func Refusal(desc string, algs, needs []string) string {
	var b strings.Builder
	b.WriteString("the key is ")
	b.WriteString(desc)
	for i, n := range needs {
		if indexOf(needs[:i], n) >= 0 {
			continue // written with its first algorithm
		}
		b.WriteString("; ")
		count := 0
		for j := i; j < len(needs); j++ {
			if needs[j] != n {
				continue
			}
			if count > 0 {
				b.WriteString(" and ")
			}
			b.WriteString(algs[j])
			count++
		}
		if count == 1 {
			b.WriteString(" needs ")
		} else {
			b.WriteString(" need ")
		}
		b.WriteString(n)
	}
	return b.String()
}

// PrivateKeyNeeded is what an algorithm given a public key needs to do
// what ("sign", "decrypt"), in the words of jwa's KeyNeeds methods: "the
// private key to sign".
func PrivateKeyNeeded(what string) string { return "the private key to " + what }

// One is Refusal for a single algorithm.
func One(desc, alg, needs string) string {
	return "the key is " + desc + "; " + alg + " needs " + needs
}

func indexOf(s []string, v string) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}
