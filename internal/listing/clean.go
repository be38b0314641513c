package listing

import (
	"reflect"

	"lanes/state"
)

// Clean makes every string of s printable by the one rule
// (state.CleanText): a session another host listed is that host's words,
// and no name, branch or reason of it may reach a terminal, a card or a
// notification raw. It walks the fields, so a field added later is
// cleaned too.
func (s *Session) Clean() { clean(reflect.ValueOf(s).Elem()) }

func clean(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if c := state.CleanText(v.String()); c != v.String() && v.CanSet() {
			v.SetString(c)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			clean(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			clean(v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			clean(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() || v.Type().Key().Kind() != reflect.String || !v.CanSet() {
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			k := reflect.New(v.Type().Key()).Elem()
			k.SetString(state.CleanText(it.Key().String()))
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(it.Value())
			clean(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	}
}
