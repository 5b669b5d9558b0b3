package jwa

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDocListsAlgorithms: the package doc lists every algorithm identifier
// this package declares, as "[Go name]" followed by its JOSE name in
// parentheses where the two differ, so that go doc shows them all.
func TestDocListsAlgorithms(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var doc string
	consts := map[string]string{} // Go name -> JOSE name
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil {
			doc += f.Doc.Text()
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				id, ok := vs.Type.(*ast.Ident)
				if !ok || (id.Name != "SignatureAlgorithm" && id.Name != "KeyAlgorithm" && id.Name != "ContentEncryption") {
					continue
				}
				for i, n := range vs.Names {
					v, err := strconv.Unquote(vs.Values[i].(*ast.BasicLit).Value)
					if err != nil {
						t.Fatal(err)
					}
					consts[n.Name] = v
				}
			}
		}
	}
	if len(consts) < 50 {
		t.Fatalf("found %d algorithm constants", len(consts))
	}
	doc = strings.Join(strings.Fields(doc), " ")
	for g, j := range consts {
		want := "[" + g + "]"
		if g != j {
			want += " (" + j + ")"
		}
		if !strings.Contains(doc+" ", want+",") && !strings.Contains(doc, want+".") {
			t.Errorf("the package doc does not list %s", want)
		}
	}
	var registered []string
	for _, a := range SignatureAlgorithms() {
		registered = append(registered, string(a))
	}
	for _, a := range KeyAlgorithms() {
		registered = append(registered, string(a))
	}
	for _, a := range ContentEncryptions() {
		registered = append(registered, string(a))
	}
	for _, a := range registered {
		if goName(consts, a) == "" {
			t.Errorf("%s has no constant", a)
		}
	}
}

func goName(consts map[string]string, jose string) string {
	for g, j := range consts {
		if j == jose {
			return g
		}
	}
	return ""
}
