package substrait

import (
	"bytes"
	"encoding/json"
	"fmt"

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
func MarshalJSON(msg *pb.ExtendedExpression) ([]byte, error) {
	raw, err := protojson.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("substrait: encoding JSON: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, fmt.Errorf("substrait: encoding JSON: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
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
			return nil, fmt.Errorf("substrait: reading JSON: %w", err)
		}
		return msg, nil
	}
	if err := (proto.UnmarshalOptions{RecursionLimit: maxNesting}).Unmarshal(data, msg); err != nil {
		return nil, fmt.Errorf("substrait: reading protobuf: %w", err)
	}
	return msg, nil
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
