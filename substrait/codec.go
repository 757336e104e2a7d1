package substrait

import (
	"bytes"
	"fmt"
	"strings"

	pb "github.com/substrait-io/substrait-protobuf/go/substraitpb"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/colexpr/colexpr/expr"
)

// maxNesting bounds the nesting of the messages Unmarshal reads. A colexpr
// node takes about three protobuf levels (expression, function, argument),
// so this admits expressions some 30 000 calls deep, which is deeper than
// protobuf's default of 10 000 levels.
const maxNesting = 100_000

// MarshalJSON is the protobuf JSON form of msg, indented by two spaces, in
// a stable layout (protojson's own output varies its spacing on purpose).
// Parts nested deeper than 64 levels are written on one line.
func MarshalJSON(msg *pb.ExtendedExpression) ([]byte, error) {
	raw, err := protojson.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("substrait: encoding JSON: %w", err)
	}
	return indent(raw), nil
}

// maxIndent is the nesting depth up to which MarshalJSON breaks lines:
// deeper parts are written compactly, so that the text of a deep
// expression grows linearly with it rather than with the square of its
// depth.
const maxIndent = 64

// indent lays out valid JSON with two spaces per level, one member or
// element per line, ": " after names, and empty objects and arrays as {}
// and []; what is nested deeper than maxIndent levels stays on one line.
// Unlike encoding/json's Indent it has no nesting limit.
func indent(raw []byte) []byte {
	out := make([]byte, 0, len(raw)+len(raw)/2)
	depth := 0
	newline := func() {
		if depth > maxIndent {
			return
		}
		out = append(out, '\n')
		for i := 0; i < depth; i++ {
			out = append(out, ' ', ' ')
		}
	}
	// next is the first byte after i that is not white space, or 0.
	next := func(i int) byte {
		for i++; i < len(raw); i++ {
			switch raw[i] {
			case ' ', '\t', '\r', '\n':
				continue
			}
			return raw[i]
		}
		return 0
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case ' ', '\t', '\r', '\n':
		case '"':
			start := i
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
			out = append(out, raw[start:min(i+1, len(raw))]...)
		case '{', '[':
			out = append(out, c)
			if n := next(i); n == '}' || n == ']' {
				continue
			}
			depth++
			newline()
		case '}', ']':
			if p := out[len(out)-1]; p != '{' && p != '[' {
				depth--
				newline()
			}
			out = append(out, c)
		case ',':
			out = append(out, c)
			newline()
		case ':':
			out = append(out, ':')
			if depth <= maxIndent {
				out = append(out, ' ')
			}
		default:
			out = append(out, c)
		}
	}
	return append(out, '\n')
}

// Marshal is the protobuf binary form of msg.
func Marshal(msg *pb.ExtendedExpression) ([]byte, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("substrait: encoding protobuf: %w", err)
	}
	return b, nil
}

// Unmarshal reads an ExtendedExpression in either form: JSON when the
// first byte that is not white space is '{', protobuf binary otherwise.
func Unmarshal(data []byte) (*pb.ExtendedExpression, error) {
	msg := &pb.ExtendedExpression{}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		if err := (protojson.UnmarshalOptions{RecursionLimit: maxNesting}).Unmarshal(data, msg); err != nil {
			return nil, decodeError("JSON", err)
		}
		return msg, nil
	}
	if err := (proto.UnmarshalOptions{RecursionLimit: maxNesting}).Unmarshal(data, msg); err != nil {
		return nil, decodeError("protobuf", err)
	}
	return msg, nil
}

// decodeError wraps a protobuf decoding error in ErrInvalid. The protobuf
// library varies the spaces in its messages on purpose (a non-breaking
// space now and then, so that no one depends on their text); they are
// made plain so that the message reads the same every time.
func decodeError(form string, err error) error {
	text := strings.ReplaceAll(err.Error(), "\u00a0", " ")
	return fmt.Errorf("substrait: reading %s: %w: %s", form, ErrInvalid, text)
}

// ExportJSON is Export followed by MarshalJSON: the JSON form of b as a
// one-expression ExtendedExpression, as `colexpr explain --substrait`
// prints it.
func ExportJSON(b *expr.Bound, scope expr.Scope) ([]byte, error) {
	msg, err := Export(b, scope)
	if err != nil {
		return nil, err
	}
	return MarshalJSON(msg)
}

// ImportJSON is Unmarshal followed by Import: it reads an
// ExtendedExpression in JSON or protobuf binary form and binds its
// expressions against scope.
func ImportJSON(data []byte, scope expr.Scope) ([]Named, error) {
	msg, err := Unmarshal(data)
	if err != nil {
		return nil, err
	}
	return Import(msg, scope)
}
