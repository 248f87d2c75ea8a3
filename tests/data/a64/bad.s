// Bad AArch64 code (tests/52-aarch64.bats): a function whose size is no
// multiple of 4, a word no decoder reads, a literal pool (with its
// mapping symbols stripped, data read as code), zeros after a return, a
// size that ends before the last instruction.
	.text
	.p2align 2
	.globl trunc
	.type trunc,%function
trunc:	cbz x0, 1f
	add x0, x0, #1
1:	ret
	.hword 0x1234
	.size trunc, .-trunc

	.p2align 2
	.globl undec
	.type undec,%function
undec:	cbz x0, 1f
	.inst 0xffffffff
1:	add x0, x0, #2
	ret
	.size undec, .-undec

	.globl pool
	.type pool,%function
pool:	ldr x1, 1f
	ldr w2, 2f
	add x0, x0, x1
	add x0, x0, x2
	ret
1:	.quad 0x0123456789abcdef
2:	.word 0xffffffff
	.size pool, .-pool

	.globl zpad
	.type zpad,%function
zpad:	add x0, x0, #3
	ret
	.word 0
	.word 0
	.size zpad, .-zpad

	.globl cut
	.type cut,%function
cut:	cbz x0, 1f
	add x0, x0, #4
1:	ret
	.size cut, 8

	.globl tail
	.type tail,%function
tail:	cbz x0, 1f
	b pool
1:	add x0, x0, #5
	ret
	.size tail, .-tail
