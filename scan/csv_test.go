package scan

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestCSVInference(t *testing.T) {
	cases := []struct {
		values []string
		want   arrow.DataType
	}{
		{[]string{"1", "-2", ""}, arrow.PrimitiveTypes.Int64},
		{[]string{"1", "2.5", "NaN"}, arrow.PrimitiveTypes.Float64},
		{[]string{"true", "FALSE", ""}, arrow.FixedWidthTypes.Boolean},
		{[]string{"1995-06-17", "2000-02-29"}, arrow.FixedWidthTypes.Date32},
		{[]string{"1995-06-17", "1995-6-1"}, arrow.BinaryTypes.String},
		{[]string{"1", "yes"}, arrow.BinaryTypes.String},
		{[]string{"", ""}, arrow.BinaryTypes.String},
		{[]string{"99999999999999999999"}, arrow.PrimitiveTypes.Float64},
	}
	for _, c := range cases {
		var inf csvInference
		for _, v := range c.values {
			inf.see(v)
		}
		if got := inf.result(); !arrow.TypeEqual(got, c.want) {
			t.Errorf("%q infers %s, want %s", c.values, got, c.want)
		}
	}
}
