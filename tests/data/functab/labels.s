	.text
	.globl asmfn
	.type asmfn,@function
asmfn:
	.cfi_startproc
	xor %eax,%eax
inner_label:
	inc %eax
	.globl asm_second
asm_second:
	cmp $10,%eax
	jl inner_label
	ret
	.cfi_endproc
	.size asmfn, .-asmfn
	.p2align 4
nosym_code:
	.cfi_startproc
	mov $1,%eax
	ret
	.cfi_endproc
	.p2align 4
	.globl zerosz
	.type zerosz,@function
zerosz:
	nop
	ret
	.section .text.unlikely
	.globl lonely
lonely:
	ret
	.section .note.GNU-stack,"",@progbits
