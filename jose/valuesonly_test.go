package jose

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestValuesOnlyCoversEveryReferenceField sets each field of Header that
// holds a reference (slice, pointer, map) in turn and checks ValuesOnly
// reports it: a field added to Header later must be added there too, or
// the header caches of jws and jwe would hand out shared memory.
func TestValuesOnlyCoversEveryReferenceField(t *testing.T) {
	if !(&Header{Algorithm: "HS256", KeyID: "k", P2C: 1000, X5T: "x"}).ValuesOnly() {
		t.Fatal("a header of strings and integers is not ValuesOnly")
	}
	typ := reflect.TypeFor[Header]()
	refs := 0
	for i := range typ.NumField() {
		f := typ.Field(i)
		var h Header
		v := reflect.ValueOf(&h).Elem().Field(i)
		v = reflect.NewAt(f.Type, unsafe.Pointer(v.UnsafeAddr())).Elem() // settable, exported or not
		switch f.Type.Kind() {
		case reflect.String, reflect.Int:
			continue
		case reflect.Slice:
			v.Set(reflect.MakeSlice(f.Type, 0, 0))
		case reflect.Pointer:
			v.Set(reflect.New(f.Type.Elem()))
		case reflect.Map:
			v.Set(reflect.MakeMap(f.Type))
		default:
			t.Fatalf("field %s has kind %s: extend this test", f.Name, f.Type.Kind())
		}
		refs++
		if h.ValuesOnly() {
			t.Errorf("ValuesOnly is true with %s set", f.Name)
		}
	}
	if refs == 0 {
		t.Fatal("no reference field found")
	}
}
