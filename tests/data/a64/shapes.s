// Hand-written AArch64 shapes, the counterpart of ../fdatawrite/shapes.s
// (BOLT 19's AArch64 rules: bolt/lib/Target/AArch64/AArch64MCPlusBuilder.cpp,
// BinaryFunction::disassemble, postProcessIndirectBranches,
// BinaryContext::handleAddressRef, RewriteInstance::discoverFileObjects'
// mapping symbols).  Every function takes x0 and returns x0; main.c
// calls each with a few arguments and prints the results.
	.text
// conditional tail calls (cbz, tbnz, b.cond) and a tail call (b)
	.globl ctc
	.type ctc,%function
ctc:	cbz x0, tgt
	tbnz x0, #40, tgt
	cmp x0, #100
	b.gt tgt
	add x0, x0, #1
	cmp x0, #50
	b.eq tgt2
	b tgt
	.size ctc, .-ctc
	.globl tgt
	.type tgt,%function
tgt:	add x0, x0, #7
	ret
	.size tgt, .-tgt
	.globl tgt2
	.type tgt2,%function
tgt2:	sub x0, x0, #3
	ret
	.size tgt2, .-tgt2
// a jump past the end (__builtin_unreachable), padding after
	.globl pastend
	.type pastend,%function
pastend:
	cmp x0, #999
	b.hi .Lpastend_end
	add x0, x0, #2
	ret
	.size pastend, .-pastend
.Lpastend_end:
	nop
	.p2align 4
// brk, udf end blocks (traps); hlt does not
	.globl trp
	.type trp,%function
trp:	cmp x0, #1000
	b.le 1f
	brk #1000
1:	add x0, x0, #1
	cmp x0, #2000
	b.le 2f
	udf #7
2:	add x0, x0, #2
	cmp x0, #3000
	b.le 3f
	hlt #1
3:	ret
	.size trp, .-trp
// a secondary entry point
	.globl multi
	.type multi,%function
multi:	mov x1, #1
	.globl multi_second
multi_second:
	add x0, x0, x1
	cmp x0, #0
	b.ge 1f
	neg x0, x0
1:	ret
	.size multi, .-multi
// the address of its own code: adr and br (potentially escaped)
	.globl selfadr
	.type selfadr,%function
selfadr:
	adr x2, 1f
	cbz x0, 2f
	br x2
1:	add x0, x0, #3
2:	ret
	.size selfadr, .-selfadr
// a jump through a register argument
	.globl ij
	.type ij,%function
ij:	cbz x1, 1f
	br x1
1:	add x0, x0, #5
	ret
	.size ij, .-ij
// a single-block br (tail call) and a blr
	.globl ijt
	.type ijt,%function
ijt:	br x1
	.size ijt, .-ijt
	.globl icall
	.type icall,%function
icall:	stp x29, x30, [sp, #-16]!
	mov x2, x1
	mov x1, x0
	blr x2
	ldp x29, x30, [sp], #16
	ret
	.size icall, .-icall
// a literal pool inside the function ($d ... $x) and one at its end
	.globl island
	.type island,%function
island:	ldr x1, 1f
	add x0, x0, x1
	b 2f
1:	.quad 0x1234
2:	cmp x0, #5
	b.lt 3f
	ldr w2, 4f
	add x0, x0, x2
3:	ret
4:	.word 77
	.size island, .-island
// NOP padding before a loop header, trailing NOPs
	.globl nops
	.type nops,%function
nops:	mov x1, #0
	cbz x0, 2f
	nop
	.p2align 5
1:	add x1, x1, x0
	subs x0, x0, #1
	b.ne 1b
2:	mov x0, x1
	ret
	nop
	nop
	.size nops, .-nops
// b.cond followed by b (one block); b.cond to the next instruction
	.globl dj
	.type dj,%function
dj:	cmp x0, #3
	b.eq 1f
1:	cmp x0, #7
	b.lt 2f
	b 3f
2:	add x0, x0, #1
3:	ret
	.size dj, .-dj
// a call that ends a block, then a join
	.globl cj
	.type cj,%function
cj:	stp x29, x30, [sp, #-16]!
	cbz x0, 1f
	bl tgt
1:	add x0, x0, #1
	ldp x29, x30, [sp], #16
	ret
	.size cj, .-cj
// an adr into the middle of another function (an interprocedural entry)
	.globl xref
	.type xref,%function
xref:	adr x1, multi+8
	cmp x0, x1
	b.ne 1f
	mov x0, #0
1:	ret
	.size xref, .-xref
// a hand-written byte jump table, as clang emits it
	.globl jt
	.type jt,%function
jt:	cmp x0, #3
	b.hi 9f
	adrp x1, .Ljt
	add x1, x1, :lo12:.Ljt
	adr x2, 5f
	ldrb w3, [x1, x0]
	add x2, x2, x3, lsl #2
	br x2
5:	mov x0, #10
	ret
6:	mov x0, #11
	ret
7:	mov x0, #12
	ret
8:	mov x0, #13
	ret
9:	mov x0, #14
	ret
	.size jt, .-jt
	.section .rodata
.Ljt:	.byte (5b-5b)>>2, (6b-5b)>>2, (7b-5b)>>2, (8b-5b)>>2
	.text
// pointer authentication: paciasp, autiasp, retaa, braa, blraa
	.globl pac
	.type pac,%function
pac:	paciasp
	stp x29, x30, [sp, #-16]!
	cbz x0, 1f
	add x0, x0, #9
1:	ldp x29, x30, [sp], #16
	autiasp
	ret
	.size pac, .-pac
	.globl paca
	.type paca,%function
paca:	pacibsp
	cbz x0, 1f
	add x0, x0, #4
1:	retab
	.size paca, .-paca
// tbz on a high bit, a loop to the entry
	.globl tbl
	.type tbl,%function
tbl:	lsr x0, x0, #1
	tbz x0, #33, 1f
	add x0, x0, #1
1:	cbnz x0, tbl
	ret
	.size tbl, .-tbl
// data referencing code inside a function (a leader with relocations)
	.globl dref
	.type dref,%function
dref:	cmp x0, #2
	b.lt 1f
	add x0, x0, #4
	add x0, x0, #5
1:	add x0, x0, #6
	ret
	.size dref, .-dref
	.data
	.globl dref_tab
dref_tab:
	.quad dref+12
	.text
// an FDE-only function (no symbol), then a function with two names
	.cfi_startproc
fdeonly:
	add x0, x0, #8
	cbz x0, 1f
	add x0, x0, #1
1:	ret
	.cfi_endproc
	.globl aliasb
	.type aliasb,%function
	.globl aliasa
	.type aliasa,%function
aliasa:
aliasb:	cbz x0, 1f
	add x0, x0, #11
1:	ret
	.size aliasa, .-aliasa
	.size aliasb, .-aliasb
	.globl call_fdeonly
	.type call_fdeonly,%function
call_fdeonly:
	b fdeonly
	.size call_fdeonly, .-call_fdeonly
// PC-relative references to its own code: adrp and add of a label
// (relocated), a literal load from code (not a literal pool)
	.globl pageref
	.type pageref,%function
pageref:
	adrp x1, 1f
	add x1, x1, :lo12:1f
	cbz x0, 2f
	add x0, x0, #1
1:	add x0, x0, #2
2:	ret
	.size pageref, .-pageref
	.globl litcode
	.type litcode,%function
litcode:
	cbz x0, 1f
	ldr x1, 2f
	add x0, x0, x1
1:	add x0, x0, #1
2:	ret
	.size litcode, .-litcode
// references into the middle of another function: adrp and add, adr
	.globl xpage
	.type xpage,%function
xpage:	adrp x1, dj+8
	add x1, x1, :lo12:dj+8
	adr x2, cj+12
	cmp x1, x2
	b.ne 1f
	add x0, x0, #1
1:	ret
	.size xpage, .-xpage
// an eret and a drps (never run: their kinds), a bl to a noreturn function
	.globl priv
	.type priv,%function
priv:	cbz x0, 1f
	eret
1:	cbnz x1, 2f
	drps
2:	bl abort
	add x0, x0, #1
	ret
	.size priv, .-priv
