package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestErrorTextCut: the input's text in what the commands print (a
// duplicate member name of 300 KB, or of 4,000 bytes in a header, in
// "jose inspect"; a kid of 50,000 bytes in "jose key analyze" and "jose
// set add") is quoted and cut, so that no line is longer than 1 KiB
// (issue 18, finding 4).
func TestErrorTextCut(t *testing.T) {
	name := strings.Repeat("n", 300000)
	hname := strings.Repeat("h", 4000) // a header is at most 8 KiB
	header := `{"alg":"HS256","` + hname + `":1,"` + hname + `":2}`
	kid := strings.Repeat("k", 50000)
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "key.json")
	setFile := filepath.Join(dir, "set.json")
	key := `{"kty":"oct","k":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","kid":"` + kid + `","use":"` + kid + `"}`
	if err := os.WriteFile(keyFile, []byte(key), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(setFile, []byte(`{"keys":[`+key+`]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cutText := func(c string, n int) string {
		return `"` + strings.Repeat(c, 64) + `…" (` + strconv.Itoa(n) + ` bytes)`
	}
	for _, c := range []struct {
		name string
		in   string
		args []string
		want string
	}{
		{"inspect compact", base64.RawURLEncoding.EncodeToString([]byte(header)) + ".e30.AAAA", []string{"inspect"}, cutText("h", 4000)},
		{"inspect JSON header", `{"payload":"e30","signature":"AAAA","header":` + header + `}`, []string{"inspect"}, cutText("h", 4000)},
		{"inspect JSON", `{"payload":"e30","signature":"AAAA","` + name + `":1,"` + name + `":2}`, []string{"inspect"}, cutText("n", 300000)},
		{"key analyze", "", []string{"key", "analyze", keyFile}, cutText("k", 50000)},
		{"set add", "", []string{"set", "add", "--key", keyFile, setFile}, cutText("k", 50000)},
	} {
		code, stdout, stderr := runCLI(t, []byte(c.in), c.args...)
		if code == exitOK || !strings.Contains(stdout+stderr, c.want) {
			t.Errorf("%s: exit %d, stdout %.300s, stderr %.300s\nwant %s", c.name, code, stdout, stderr, c.want)
		}
		for _, line := range strings.Split(stdout+stderr, "\n") {
			if len(line) > 1<<10 {
				t.Errorf("%s: a line of %d bytes: %.300s", c.name, len(line), line)
			}
		}
	}
}
