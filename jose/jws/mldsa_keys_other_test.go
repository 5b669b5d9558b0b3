//go:build !go1.27

package jws_test

import "testing"

func rtMLDSAKeys(testing.TB) []rtKey { return nil }
