//go:build !go1.27

package subjects

// mldsaKeys knows no ML-DSA key before Go 1.27.
func mldsaKeys(string, bool) (priv, pub any, ok bool, err error) { return nil, nil, false, nil }
