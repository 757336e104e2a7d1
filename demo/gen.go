package demo

import (
	"time"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The generator writes each batch straight into Arrow buffers, one row at a
// time across all columns, drawing the row's values from a random stream
// keyed by (seed, row). Orders are laid out in blocks of blockRows rows:
// the block's own stream cuts it into orders of 1–7 lines, so the order a
// row belongs to is known without generating the rows before it.

const blockRows = 64

// Dates as days since 1970-01-01.
var (
	startDate   = days(1992, 1, 1)
	endDate     = days(1998, 12, 31)
	currentDate = days(1995, 6, 17)
	// Orders are placed up to 151 days before the end, so that every
	// line ships and arrives inside the calendar (dbgen's rule).
	orderDates = endDate - 151 - startDate + 1
)

func days(y int, m time.Month, d int) int32 {
	return int32(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

var (
	returnFlags  = []string{"R", "A", "N"}
	lineStatuses = []string{"O", "F"}
	shipInstruct = []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	shipModes    = []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	tagWords     = []string{"fragile", "bulk", "express", "gift", "hazmat", "perishable", "oversize", "insured"}
	commentWords = []string{
		"furiously", "quickly", "carefully", "blithely", "slyly", "fluffily", "ruthlessly", "regular",
		"final", "express", "pending", "ironic", "special", "bold", "even", "silent", "unusual",
		"deposits", "requests", "packages", "accounts", "instructions", "theodolites", "foxes",
		"pinto", "beans", "ideas", "dependencies", "platelets", "asymptotes", "courts", "dolphins",
		"sleep", "wake", "haggle", "nag", "use", "boost", "affix", "detect", "integrate", "cajole",
		"among", "across", "after", "above", "along", "against", "the", "about", "according", "to",
	}
)

// params are the table-wide values every row depends on.
type params struct {
	seed  uint64
	parts int64 // l_partkey is in 1..parts
	supps int64 // l_suppkey is in 1..supps
}

func newParams(t Table) params {
	sf := float64(t.Rows) / 6_000_000
	return params{
		seed:  t.Seed,
		parts: max(1000, int64(200_000*sf)),
		supps: max(100, int64(10_000*sf)),
	}
}

// rng is splitmix64: a tiny, fast generator whose streams for different
// keys are independent enough for demo data.
type rng struct{ s uint64 }

func newRng(seed, stream, key uint64) rng {
	r := rng{s: seed ^ stream*0xD1B54A32D192ED03}
	r.s ^= mix(key + 0x632BE59BD9B4E019)
	return r
}

func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	return mix(r.s)
}

// intn is uniform in [0, n) for small n.
func (r *rng) intn(n int) int { return int((r.next() >> 32) * uint64(n) >> 32) }

// between is uniform in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// The random streams.
const (
	streamBlock = iota + 1
	streamOrder
	streamRow
)

// block is the order layout of one block of rows.
type block struct {
	index int64
	order [blockRows]int32 // order number within the block
	line  [blockRows]int32 // line number within the order, from 1
}

func (b *block) layout(seed uint64, index int64) {
	b.index = index
	r := newRng(seed, streamBlock, uint64(index))
	o := int32(0)
	for i := 0; i < blockRows; {
		lines := r.between(1, 7)
		for l := 1; l <= lines && i < blockRows; l++ {
			b.order[i], b.line[i] = o, int32(l)
			i++
		}
		o++
	}
}

// orderKey is dbgen's sparse key of the g-th order: 8 keys used of every 32.
func orderKey(g int64) int64 { return g/8*32 + g%8 + 1 }

// retailPrice is dbgen's part price, in cents.
func retailPrice(partkey int64) int64 {
	return 90000 + (partkey/10)%20001 + 100*(partkey%1000)
}

// suppKey is dbgen's i-th supplier (0..3) of a part.
func suppKey(partkey, i, supps int64) int64 {
	return (partkey+i*(supps/4+(partkey-1)/supps))%supps + 1
}

// alloc is a buffer of n bytes from mem.
func alloc(mem memory.Allocator, n int) *memory.Buffer {
	b := memory.NewResizableBuffer(mem)
	b.Resize(n)
	return b
}

// fixed is a buffer of n values of T from mem and the typed view of it.
func fixed[T any](mem memory.Allocator, n int) (*memory.Buffer, []T) {
	var zero T
	b := alloc(mem, n*int(unsafe.Sizeof(zero)))
	if n == 0 {
		return b, nil
	}
	return b, unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b.Bytes()))), n)
}

// bitmap is a cleared validity bitmap for n rows.
func bitmap(mem memory.Allocator, n int) *memory.Buffer {
	b := alloc(mem, int(bitutil.BytesForBits(int64(n))))
	clear(b.Bytes())
	return b
}

// strings accumulates a utf8 column.
type strs struct {
	offs []int32
	data []byte
}

func newStrs(n, avg int) *strs {
	s := &strs{offs: make([]int32, 1, n+1), data: make([]byte, 0, n*avg)}
	return s
}

func (s *strs) add(v string) {
	s.data = append(s.data, v...)
	s.offs = append(s.offs, int32(len(s.data)))
}

func (s *strs) addBytes(v []byte) {
	s.data = append(s.data, v...)
	s.offs = append(s.offs, int32(len(s.data)))
}

func (s *strs) arrayData(mem memory.Allocator) *array.Data {
	ob, o := fixed[int32](mem, len(s.offs))
	copy(o, s.offs)
	db := alloc(mem, len(s.data))
	copy(db.Bytes(), s.data)
	d := array.NewData(arrow.BinaryTypes.String, len(s.offs)-1, []*memory.Buffer{nil, ob, db}, nil, 0, 0)
	ob.Release()
	db.Release()
	return d
}

func dec(v int64) decimal128.Num { return decimal128.FromI64(v) }

// generate makes rows [off, off+n) of the table, or, when rows is not
// nil, the rows it lists, in its order (n is then len(rows)).
func generate(mem memory.Allocator, p params, off int64, n int, rows []int64) arrow.RecordBatch {
	bOrder, orderkey := fixed[int64](mem, n)
	bPart, partkey := fixed[int64](mem, n)
	bSupp, suppkey := fixed[int64](mem, n)
	bLine, linenumber := fixed[int32](mem, n)
	bQty, quantity := fixed[decimal128.Num](mem, n)
	bPrice, extprice := fixed[decimal128.Num](mem, n)
	bDisc, discount := fixed[decimal128.Num](mem, n)
	bTax, tax := fixed[decimal128.Num](mem, n)
	bShip, shipdate := fixed[int32](mem, n)
	bCommit, commitdate := fixed[int32](mem, n)
	bReceipt, receiptdate := fixed[int32](mem, n)
	flag, status := newStrs(n, 1), newStrs(n, 1)
	instruct, mode, comment := newStrs(n, 12), newStrs(n, 4), newStrs(n, 27)
	tagsValid := bitmap(mem, n)
	bTagOffs, tagOffs := fixed[int32](mem, n+1)
	tagItems := newStrs(2*n, 6)
	dimsValid := bitmap(mem, n)
	bW, width := fixed[float64](mem, n)
	bH, height := fixed[float64](mem, n)

	var blk block
	blk.index = -1
	var text []byte
	tagNulls, dimNulls := 0, 0
	tagOffs[0] = 0
	for i := 0; i < n; i++ {
		row := off + int64(i)
		if rows != nil {
			row = rows[i]
		}
		if bi := row / blockRows; bi != blk.index {
			blk.layout(p.seed, bi)
		}
		slot := row % blockRows
		g := blk.index*blockRows + int64(blk.order[slot])
		orderkey[i] = orderKey(g)
		linenumber[i] = blk.line[slot]
		or := newRng(p.seed, streamOrder, uint64(g))
		orderdate := startDate + int32(or.intn(int(orderDates)))

		r := newRng(p.seed, streamRow, uint64(row))
		pk := 1 + int64(r.next()%uint64(p.parts))
		partkey[i] = pk
		suppkey[i] = suppKey(pk, int64(r.intn(4)), p.supps)
		qty := int64(r.between(1, 50))
		quantity[i] = dec(qty * 100)
		extprice[i] = dec(qty * retailPrice(pk))
		discount[i] = dec(int64(r.between(0, 10)))
		tax[i] = dec(int64(r.between(0, 8)))
		ship := orderdate + int32(r.between(1, 121))
		receipt := ship + int32(r.between(1, 30))
		shipdate[i], commitdate[i], receiptdate[i] = ship, orderdate+int32(r.between(30, 90)), receipt
		switch {
		case receipt > currentDate:
			flag.add(returnFlags[2])
		default:
			flag.add(returnFlags[r.intn(2)])
		}
		if ship > currentDate {
			status.add(lineStatuses[0])
		} else {
			status.add(lineStatuses[1])
		}
		instruct.add(shipInstruct[r.intn(len(shipInstruct))])
		mode.add(shipModes[r.intn(len(shipModes))])

		want := r.between(10, 43)
		text = text[:0]
		for len(text) < want {
			if len(text) > 0 {
				text = append(text, ' ')
			}
			text = append(text, commentWords[r.intn(len(commentWords))]...)
		}
		if len(text) > 43 {
			text = text[:43]
			for text[len(text)-1] == ' ' {
				text = text[:len(text)-1]
			}
		}
		comment.addBytes(text)

		if r.intn(10) == 0 {
			tagNulls++
		} else {
			bitutil.SetBit(tagsValid.Bytes(), i)
			var used uint8
			for k := r.intn(5); k > 0; k-- {
				t := r.intn(len(tagWords))
				for used&(1<<t) != 0 {
					t = (t + 1) % len(tagWords)
				}
				used |= 1 << t
				tagItems.add(tagWords[t])
			}
		}
		tagOffs[i+1] = int32(len(tagItems.offs) - 1)

		if r.intn(20) == 0 {
			dimNulls++
			width[i], height[i] = 0, 0
		} else {
			bitutil.SetBit(dimsValid.Bytes(), i)
			width[i] = float64(r.between(5, 1000)) / 10
			height[i] = float64(r.between(5, 1000)) / 10
		}
	}

	prim := func(t arrow.DataType, b *memory.Buffer) arrow.Array {
		d := array.NewData(t, n, []*memory.Buffer{nil, b}, nil, 0, 0)
		b.Release()
		defer d.Release()
		return array.MakeFromData(d)
	}
	str := func(s *strs) arrow.Array {
		d := s.arrayData(mem)
		defer d.Release()
		return array.MakeFromData(d)
	}
	items := tagItems.arrayData(mem)
	tagsData := array.NewData(tagsType, n, []*memory.Buffer{tagsValid, bTagOffs}, []arrow.ArrayData{items}, tagNulls, 0)
	items.Release()
	tagsValid.Release()
	bTagOffs.Release()
	wData := array.NewData(arrow.PrimitiveTypes.Float64, n, []*memory.Buffer{nil, bW}, nil, 0, 0)
	hData := array.NewData(arrow.PrimitiveTypes.Float64, n, []*memory.Buffer{nil, bH}, nil, 0, 0)
	bW.Release()
	bH.Release()
	dimsData := array.NewData(dimsType, n, []*memory.Buffer{dimsValid}, []arrow.ArrayData{wData, hData}, dimNulls, 0)
	wData.Release()
	hData.Release()
	dimsValid.Release()
	tagsArr, dimsArr := array.MakeFromData(tagsData), array.MakeFromData(dimsData)
	tagsData.Release()
	dimsData.Release()

	cols := []arrow.Array{
		prim(arrow.PrimitiveTypes.Int64, bOrder),
		prim(arrow.PrimitiveTypes.Int64, bPart),
		prim(arrow.PrimitiveTypes.Int64, bSupp),
		prim(arrow.PrimitiveTypes.Int32, bLine),
		prim(money, bQty),
		prim(money, bPrice),
		prim(money, bDisc),
		prim(money, bTax),
		str(flag),
		str(status),
		prim(arrow.FixedWidthTypes.Date32, bShip),
		prim(arrow.FixedWidthTypes.Date32, bCommit),
		prim(arrow.FixedWidthTypes.Date32, bReceipt),
		str(instruct),
		str(mode),
		str(comment),
		tagsArr,
		dimsArr,
	}
	rec := array.NewRecordBatch(schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return rec
}
