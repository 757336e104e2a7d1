package kernels

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

var (
	two127   = new(big.Int).Lsh(big.NewInt(1), 127)
	min128   = new(big.Int).Neg(two127)
	max128   = new(big.Int).Sub(two127, big.NewInt(1))
	bigTen38 = new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
)

// i128Samples are edge values and random ones of every magnitude.
func i128Samples(rng *rand.Rand) []*big.Int {
	out := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(-1), big.NewInt(10), min128, max128,
		new(big.Int).Add(min128, big.NewInt(1)), new(big.Int).Sub(bigTen38, big.NewInt(1)), new(big.Int).Neg(bigTen38),
		new(big.Int).Lsh(big.NewInt(1), 64), new(big.Int).Lsh(big.NewInt(1), 63), new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 64))}
	for i := 0; i < 200; i++ {
		bitsN := rng.IntN(127) + 1
		x := new(big.Int)
		for j := 0; j < bitsN; j++ {
			x.Lsh(x, 1)
			x.SetBit(x, 0, uint(rng.IntN(2)))
		}
		if rng.IntN(2) == 0 {
			x.Neg(x)
		}
		out = append(out, x)
	}
	return out
}

func fits128(v *big.Int) bool { return v.Cmp(min128) >= 0 && v.Cmp(max128) <= 0 }

// num is v (which fits 128 bits) in two's complement.
func num(v *big.Int) decimal128.Num {
	m := new(big.Int).Mod(v, new(big.Int).Lsh(big.NewInt(1), 128))
	lo := new(big.Int).And(m, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(m, 64).Uint64()
	return decimal128.New(int64(hi), lo)
}

func TestInt128Arithmetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vals := i128Samples(rng)
	for _, a := range vals {
		for _, b := range vals[:60] {
			check := func(name string, got decimal128.Num, ok bool, want *big.Int) {
				t.Helper()
				if wantOK := fits128(want); ok != wantOK || ok && got.BigInt().Cmp(want) != 0 {
					t.Fatalf("%s(%v, %v) = %v, %v; want %v, %v", name, a, b, got.BigInt(), ok, want, wantOK)
				}
			}
			got, ok := decAdd(num(a), num(b))
			check("add", got, ok, new(big.Int).Add(a, b))
			got, ok = decSub(num(a), num(b))
			check("sub", got, ok, new(big.Int).Sub(a, b))
			got, ok = decMul(num(a), num(b))
			check("mul", got, ok, new(big.Int).Mul(a, b))
			if b.Sign() != 0 {
				r := new(big.Int).Rem(a, b) // truncated: the dividend's sign
				if got := decRem(num(a), num(b)); got.BigInt().Cmp(r) != 0 {
					t.Fatalf("rem(%v, %v) = %v, want %v", a, b, got.BigInt(), r)
				}
			}
			if c := decCmp(num(a), num(b)); c != a.Cmp(b) {
				t.Fatalf("cmp(%v, %v) = %d", a, b, c)
			}
		}
		neg, ok := decNeg(num(a))
		if want := new(big.Int).Neg(a); ok != fits128(want) || ok && neg.BigInt().Cmp(want) != 0 {
			t.Fatalf("neg(%v) = %v, %v", a, neg.BigInt(), ok)
		}
		for k := 0; k <= 38; k += 1 + rng.IntN(5) {
			p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
			up, ok := decScaleUp(num(a), k)
			if want := new(big.Int).Mul(a, p); ok != fits128(want) || ok && up.BigInt().Cmp(want) != 0 {
				t.Fatalf("scaleUp(%v, %d) = %v, %v", a, k, up.BigInt(), ok)
			}
			// Half away from zero.
			q, r := new(big.Int).QuoRem(a, p, new(big.Int))
			if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(p) >= 0 {
				q.Add(q, big.NewInt(int64(a.Sign())))
			}
			if down := decScaleDown(num(a), k); down.BigInt().Cmp(q) != 0 {
				t.Fatalf("scaleDown(%v, %d) = %v, want %v", a, k, down.BigInt(), q)
			}
		}
		for p := 1; p <= 38; p++ {
			lim := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil)
			if got, want := fitsPrecision(num(a), p), new(big.Int).Abs(a).Cmp(lim) < 0; got != want {
				t.Fatalf("fitsPrecision(%v, %d) = %v", a, p, got)
			}
		}
	}
}

func TestU128DivMod(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 20000; i++ {
		a := u128{rng.Uint64() >> uint(rng.IntN(64)), rng.Uint64()}
		b := u128{rng.Uint64() >> uint(rng.IntN(65)%64), rng.Uint64() >> uint(rng.IntN(64))}
		if rng.IntN(3) == 0 {
			b.hi = 0
		}
		if b.isZero() {
			continue
		}
		ba := new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(a.hi), 64), new(big.Int).SetUint64(a.lo))
		bb := new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(b.hi), 64), new(big.Int).SetUint64(b.lo))
		q, r := a.divmod(b)
		wq, wr := new(big.Int).QuoRem(ba, bb, new(big.Int))
		gq := new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(q.hi), 64), new(big.Int).SetUint64(q.lo))
		gr := new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(r.hi), 64), new(big.Int).SetUint64(r.lo))
		if gq.Cmp(wq) != 0 || gr.Cmp(wr) != 0 {
			t.Fatalf("%v / %v = %v rem %v, want %v rem %v", ba, bb, gq, gr, wq, wr)
		}
	}
}
