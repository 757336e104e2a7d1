package colexpr

import (
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	names := []string{"l_orderkey", "l_quantity", "l_discount", "l_tax", "l_dims", "id", "ID2"}
	cases := []struct {
		name string
		want []string
	}{
		{"l_quantiy", []string{"l_quantity"}},
		{"L_QUANTITY", []string{"l_quantity"}},
		{"l_discont", []string{"l_discount"}},
		{"l_ta", []string{"l_tax"}},
		{"l_order", []string{"l_orderkey"}},
		{"Id", []string{"id", "ID2"}},
		{"zzzzzzzz", nil},
	}
	for _, c := range cases {
		got := closest(c.name, names)
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("closest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
