# Hand-written shapes of boltcfg.md: a conditional tail call, a jump
# past the end, ud2/int3/hlt, a secondary entry, a function taking the
# address of its own code, an unsupported loop instruction, trailing
# NOPs, jcc to the next instruction and jcc;jmp, a call ending a block,
# a .cold fragment named after its parent's second name (as g++ names
# the fragment of a constructor after C2 where the function's first name
# is C1), loads from the middle of an instruction of another function
# and of its own code (handlePCRelOperand: not only lea).
	.text
	.globl ctc
	.type ctc,@function
ctc:	testl %edi, %edi
	jne tgt
	leal 1(%rdi), %eax
	cmpl $5, %eax
	jg ctc_end
	addl $2, %eax
	ret
	.size ctc, .-ctc
ctc_end:
	nop
	.p2align 4
	.globl tgt
	.type tgt,@function
tgt:	movl %edi, %eax
	ret
	.size tgt, .-tgt
	.p2align 4
	.globl trp
	.type trp,@function
trp:	cmpl $100, %edi
	jle 1f
	ud2
1:	int3
	movl %edi, %eax
	cmpl $200, %eax
	jl 2f
	hlt
2:	ret
	.size trp, .-trp
	.p2align 4
	.globl multi
	.type multi,@function
multi:	movl $1, %eax
	.globl multi_second
multi_second:
	addl %edi, %eax
	testl %eax, %eax
	jns 1f
	negl %eax
1:	ret
	.size multi, .-multi
	.p2align 4
	.globl unkind
	.type unkind,@function
unkind:	leaq 1f(%rip), %rcx
	testl %edi, %edi
	je 2f
	jmp *%rcx
1:	addl $3, %edi
2:	movl %edi, %eax
	ret
	.size unkind, .-unkind
	.p2align 4
	.globl lp
	.type lp,@function
lp:	movl %edi, %ecx
	xorl %eax, %eax
1:	addl $2, %eax
	loop 1b
	ret
	.size lp, .-lp
	.p2align 4
	.globl tailnop
	.type tailnop,@function
tailnop:
	movl %edi, %eax
	testl %eax, %eax
	jle 1f
	addl $1, %eax
1:	ret
	nop
	nop
	.size tailnop, .-tailnop
	.p2align 4
	.globl jnx
	.type jnx,@function
jnx:	testl %edi, %edi
	je 1f
1:	jg 2f
	jmp 3f
2:	addl $1, %edi
3:	movl %edi, %eax
	ret
	.size jnx, .-jnx
	.p2align 4
	.globl ce
	.type ce,@function
ce:	pushq %rbx
	movl %edi, %ebx
	testl %edi, %edi
	jle 1f
	call tgt
1:	movl %ebx, %edi
	call multi_second
	popq %rbx
	ret
	.size ce, .-ce
	.p2align 4
	.globl alia
	.globl alib
	.type alia,@function
	.type alib,@function
alia:
alib:	movl %edi, %eax
	testl %edi, %edi
	js alia.cold
	addl $7, %eax
	cmpl $50, %eax
	jl 1f
	subl $3, %eax
1:	ret
	.size alia, .-alia
	.size alib, .-alib
	.p2align 4
	.globl rtgt
	.type rtgt,@function
rtgt:	movl %edi, %eax
	testl %edi, %edi
	jle 1f
	addl $0x11223344, %eax
1:	ret
	.size rtgt, .-rtgt
	.p2align 4
	.globl rref
	.type rref,@function
rref:	movl %edi, %eax
	addl rtgt+7(%rip), %eax
	testl %eax, %eax
	jns 1f
	negl %eax
1:	ret
	.size rref, .-rref
	.p2align 4
	.globl sref
	.type sref,@function
sref:	movl %edi, %eax
	testl %edi, %edi
	jle 1f
	addl 2f+1(%rip), %eax
2:	addl $3, %eax
1:	ret
	.size sref, .-sref
	.section .text.unlikely,"ax",@progbits
	.type alia.cold,@function
alia.cold:
	negl %eax
	ret
	.size alia.cold, .-alia.cold
	.section .note.GNU-stack,"",@progbits
