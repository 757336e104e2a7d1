package substrait

import (
	"errors"
	"flag"
	"sort"
	"strings"
	"testing"

	sexpr "github.com/substrait-io/substrait-go/v8/expr"
	"github.com/substrait-io/substrait-go/v8/extensions"
	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protopath"
	"google.golang.org/protobuf/reflect/protorange"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/colexpr/colexpr/expr"
	"github.com/colexpr/colexpr/fn"
)

var roundTrips = flag.Int("roundtrips", 2000, "random expressions TestRoundTripRandom exports and imports")

// normalize rewrites b the way an export and import reads it back: the
// normalisations the package doc lists.
func normalize(b *expr.Bound) *expr.Bound {
	switch b.Kind() {
	case expr.KindLambda:
		return expr.NewLambda(b.Params(), b.ParamTypes(), normalize(b.Body()))
	case expr.KindCall:
	default:
		return b
	}
	args := make([]*expr.Bound, len(b.Args()))
	for i, a := range b.Args() {
		args[i] = normalize(a)
	}
	must := func(f fn.Function, args ...*expr.Bound) *expr.Bound {
		n, err := expr.NewCall(f, args...)
		if err != nil {
			panic(err)
		}
		return n
	}
	switch f := b.Fn().(type) {
	case fn.CaseWhenFn:
		if f.HasElse {
			if v, ok := args[len(args)-1].Literal(); ok && v.IsNull() {
				if without, err := expr.NewCall(fn.CaseWhen(false), args[:len(args)-1]...); err == nil && without.DType().Equal(b.DType()) {
					return without
				}
			}
		}
	}
	switch b.Fn().ID() {
	case "coalesce", "fill_null":
		if len(args) == 1 {
			return args[0]
		}
		return must(fn.Coalesce, args...)
	case "not":
		if l, ok := args[0].Fn().(fn.LikeFn); ok && args[0].Kind() == expr.KindCall && !l.Negated {
			return must(fn.Like(true, l.CaseInsensitive), args[0].Args()...)
		}
	}
	if len(args) == 0 {
		return b
	}
	return must(b.Fn(), args...)
}

// checkSubstraitGo checks that substrait-go reads msg. substrait-go v8.1.1
// reads a precision time or timestamp literal with a negative value (before
// 1970) as a nil literal, and panics when one sits in a struct or list
// literal: such messages are skipped.
func checkSubstraitGo(t *testing.T, msg *pb.ExtendedExpression, b *expr.Bound) {
	t.Helper()
	if hasNegativeTemporal(msg) {
		return
	}
	if _, err := sexpr.ExtendedFromProto(msg, extensions.GetDefaultCollectionWithNoError()); err != nil {
		t.Errorf("substrait-go rejects the export of %s: %v", b, err)
	}
}

func hasNegativeTemporal(msg proto.Message) bool {
	found := false
	_ = protorange.Range(msg.ProtoReflect(), func(v protopath.Values) error {
		switch m := v.Index(-1).Value.Interface().(type) {
		case protoreflect.Message:
			switch l := m.Interface().(type) {
			case *pb.Expression_Literal_PrecisionTimestamp:
				found = found || l.Value < 0
			case *pb.Expression_Literal_PrecisionTime:
				found = found || l.Value < 0
			}
		}
		return nil
	})
	return found
}

// roundTrip exports b, encodes the message as JSON and as protobuf, reads
// both back and imports them; it checks that substrait-go accepts what
// was written and that both imports equal the normalized b.
func roundTrip(t *testing.T, b *expr.Bound, scope expr.Scope) error {
	t.Helper()
	msg, err := Export(b, scope)
	if err != nil {
		return err
	}
	checkSubstraitGo(t, msg, b)
	want := normalize(b)
	js, err := MarshalJSON(msg)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	bin, err := Marshal(msg)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	for _, data := range [][]byte{js, bin} {
		got, err := ImportJSON(data, scope)
		if err != nil {
			t.Errorf("import of the export of %s:\n%v\n%s", b, err, js)
			continue
		}
		if len(got) != 1 || got[0].Name != "expr" || !got[0].Expr.Equal(want) {
			t.Errorf("round trip of %s\nwant:\n%s\ngot:\n%s", b, want.Tree(), got[0].Expr.Tree())
		}
	}
	return nil
}

func TestRoundTripRandom(t *testing.T) {
	scope := expr.ScopeOf(testSchema)
	refused := map[string]int{}
	exported := 0
	for seed := 0; seed < *roundTrips; seed++ {
		g := newGen(uint64(seed))
		b := g.expr(nil, 4)
		err := roundTrip(t, b, scope)
		switch {
		case err == nil:
			exported++
		case errors.Is(err, ErrUnsupported):
			var e *Error
			if !errors.As(err, &e) || e.Op != "export" {
				t.Fatalf("seed %d: %v is not an export *Error", seed, err)
			}
			refused[refusalKind(err.Error())]++
		default:
			t.Fatalf("seed %d: export of %s: %v", seed, b, err)
		}
		if t.Failed() {
			t.Fatalf("seed %d failed", seed)
		}
	}
	var kinds []string
	for k, n := range refused {
		kinds = append(kinds, k+": "+itoa(n))
	}
	sort.Strings(kinds)
	t.Logf("%d of %d random expressions round-tripped; refusals:\n%s", exported, *roundTrips, strings.Join(kinds, "\n"))
	if exported < *roundTrips/2 {
		t.Errorf("only %d of %d random expressions exported", exported, *roundTrips)
	}
}

// refusalKind keeps the reason of an error message, without the node text.
func refusalKind(msg string) string {
	if i := strings.Index(msg, "unsupported: "); i >= 0 {
		msg = msg[i+len("unsupported: "):]
	}
	if i := strings.Index(msg, "("); i > 0 {
		msg = msg[:i]
	}
	return strings.TrimSpace(msg)
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}
