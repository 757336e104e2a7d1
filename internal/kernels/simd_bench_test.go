package kernels

// Benchmarks of the SIMD kernels against the portable loops, the loop
// alone (buffers allocated once), one sub-benchmark per instruction set:
//
//	go test -run '^$' -bench SIMD -count 10 ./internal/kernels | benchstat -col /set -

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// simdBenchSets is the portable loops (nil) and every set this machine
// runs, by name.
func simdBenchSets() map[string]*simdSet {
	m := map[string]*simdSet{"portable": nil}
	for _, s := range simdSets {
		m[s.name] = s
	}
	return m
}

func BenchmarkSIMDCompareI64(b *testing.B) {
	for _, n := range []int{1 << 14, 1 << 20} {
		rng := rand.New(rand.NewPCG(1, 1))
		a := make([]int64, n)
		c := make([]int64, n)
		for i := range a {
			a[i], c[i] = rng.Int64N(1<<20), rng.Int64N(1<<20)
		}
		words := make([]uint64, NumWords(n))
		for name, set := range simdBenchSets() {
			b.Run(fmt.Sprintf("n=%d/form=scalar/set=%s", n, name), func(b *testing.B) {
				b.SetBytes(8 * int64(n))
				withActive(set, func() {
					for b.Loop() {
						cmpNumbers(CmpLt, words, Fixed[int64]{Vals: a}, Fixed[int64]{Scalar: 12345, IsScalar: true})
					}
				})
			})
			b.Run(fmt.Sprintf("n=%d/form=columns/set=%s", n, name), func(b *testing.B) {
				b.SetBytes(16 * int64(n))
				withActive(set, func() {
					for b.Loop() {
						cmpNumbers(CmpLt, words, Fixed[int64]{Vals: a}, Fixed[int64]{Vals: c})
					}
				})
			})
		}
	}
}

func BenchmarkSIMDAddU32(b *testing.B) {
	const n = 16384
	rng := rand.New(rand.NewPCG(1, 2))
	x, y, dst := make([]uint32, n), make([]uint32, n), make([]uint32, n)
	for i := range x {
		x[i], y[i] = rng.Uint32()>>1, rng.Uint32()>>1
	}
	for name, set := range simdBenchSets() {
		b.Run("set="+name, func(b *testing.B) {
			b.SetBytes(12 * n)
			withActive(set, func() {
				for b.Loop() {
					if intLoop(OpAdd, dst, Fixed[uint32]{Vals: x}, Fixed[uint32]{Vals: y}, nil) {
						b.Fatal("overflow")
					}
				}
			})
		})
	}
}

func BenchmarkSIMDMulI32(b *testing.B) {
	const n = 16384
	rng := rand.New(rand.NewPCG(1, 3))
	x, y, dst := make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range x {
		x[i], y[i] = rng.Int32N(1<<15)-1<<14, rng.Int32N(1<<15)-1<<14
	}
	for name, set := range simdBenchSets() {
		b.Run("set="+name, func(b *testing.B) {
			b.SetBytes(12 * n)
			withActive(set, func() {
				for b.Loop() {
					if intLoop(OpMul, dst, Fixed[int32]{Vals: x}, Fixed[int32]{Vals: y}, nil) {
						b.Fatal("overflow")
					}
				}
			})
		})
	}
}

func BenchmarkSIMDKleeneAnd(b *testing.B) {
	const nw = 1 << 14 // 1M rows
	rng := rand.New(rand.NewPCG(1, 4))
	x, y, vx, vy := randWords(rng, nw), randWords(rng, nw), randWords(rng, nw), randWords(rng, nw)
	words, valid := make([]uint64, nw), make([]uint64, nw)
	for name, set := range simdBenchSets() {
		b.Run("set="+name, func(b *testing.B) {
			b.SetBytes(6 * 8 * nw)
			for b.Loop() {
				if set == nil {
					kleenePortable(false, words, valid, x, y, vx, vy)
				} else {
					simdKleene(set, false, words, valid, x, y, vx, vy)
				}
			}
		})
	}
}

// kleenePortable is Logic's portable loop over aligned words with nulls.
func kleenePortable(or bool, words, valid, x, y, vx, vy []uint64) int {
	flip := -b2u(!or)
	ones := 0
	for k := range x {
		v := vx[k]&vy[k] | vx[k]&(x[k]^flip) | vy[k]&(y[k]^flip)
		valid[k] = v
		ones += bits.OnesCount64(v)
		if or {
			words[k] = x[k] | y[k]
		} else {
			words[k] = x[k] & y[k]
		}
	}
	return ones
}

func BenchmarkSIMDMulI64(b *testing.B) {
	const n = 16384
	rng := rand.New(rand.NewPCG(1, 6))
	x, y, dst := make([]int64, n), make([]int64, n), make([]int64, n)
	for i := range x {
		x[i], y[i] = rng.Int64N(1<<30), rng.Int64N(1<<30)-1<<29
	}
	for name, set := range simdBenchSets() {
		b.Run("set="+name, func(b *testing.B) {
			b.SetBytes(24 * n)
			withActive(set, func() {
				for b.Loop() {
					if intLoop(OpMul, dst, Fixed[int64]{Vals: x}, Fixed[int64]{Vals: y}, nil) {
						b.Fatal("overflow")
					}
				}
			})
		})
	}
}

// BenchmarkSIMDPrefix is prefixWords alone, LIKE 'fur%' (mode=prefix) and
// LIKE 'furnish' (mode=exact) over strings of 10 to 43 bytes, one in ten
// starting with the literal, as l_comment in bench/cmd/compare: at 2^14
// rows the values stay in cache, at 2^20 they stream from memory.
func BenchmarkSIMDPrefix(b *testing.B) {
	for _, n := range []int{1 << 14, 1 << 20} {
		rng := rand.New(rand.NewPCG(1, 3))
		offs := make([]int32, 1, n+1)
		var data []byte
		for i := range n {
			size := 10 + rng.IntN(34)
			start := len(data)
			if i%10 == 0 {
				data = append(data, "furnish"...)
			}
			for len(data)-start < size {
				data = append(data, byte('a'+rng.IntN(26)))
			}
			offs = append(offs, int32(len(data)))
		}
		words := make([]uint64, NumWords(n))
		for _, lit := range []string{"fur", "furnish"} {
			exact := lit == "furnish"
			mode := map[bool]string{false: "prefix", true: "exact"}[exact]
			want, mask := loadLE(lit)
			for name, set := range simdBenchSets() {
				b.Run(fmt.Sprintf("n=%d/mode=%s/set=%s", n, mode, name), func(b *testing.B) {
					b.SetBytes(int64(len(data) + 4*len(offs)))
					withActive(set, func() {
						for b.Loop() {
							prefixWords(words, offs, data, want, mask, int32(len(lit)), exact)
						}
					})
				})
			}
		}
	}
}
