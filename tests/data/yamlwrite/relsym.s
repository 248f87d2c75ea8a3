# relsym.s: two operand rules of BOLT's hashes (tests/60-yamlwrite.bats).
# tabref names an address inside another function's jump table (sw's),
# by a relocation against the section: BOLT's hashSymbol leaves out a
# value any jump table of the binary holds (getJumpTableContainingAddress
# is over all of them), not only those of the function hashed.  strref
# names a string and a string's tail by PC-relative relocations against
# local labels of a mergeable section, as gcc writes them (.LC1+6):
# perf2bolt-19 keeps no relocation against a local symbol (the operand is
# a new symbol at the address), perf2bolt-22 keeps it (the label and an
# addend).
	.text
	.globl	sw
	.type	sw, @function
sw:
	cmpl	$3, %edi
	ja	.Ldef
	movl	%edi, %eax
	jmp	*.Ltab(,%rax,8)
.L0:	movl	$11, %eax
	ret
.L1:	movl	$22, %eax
	ret
.L2:	movl	$33, %eax
	ret
.L3:	movl	$44, %eax
	ret
.Ldef:	xorl	%eax, %eax
	ret
	.size	sw, .-sw

	.globl	tabref
	.type	tabref, @function
tabref:
	leaq	.Ltab+8(%rip), %rax
	testl	%edi, %edi
	je	1f
	leaq	.Ltab+16(%rip), %rax
1:	movq	(%rax), %rax
	ret
	.size	tabref, .-tabref

	.globl	strref
	.type	strref, @function
strref:
	leaq	.LC1+6(%rip), %rax
	testl	%edi, %edi
	je	1f
	leaq	.LC1(%rip), %rax
1:	ret
	.size	strref, .-strref

	.section .rodata
	.p2align 3
.Ltab:
	.quad	.L0, .L1, .L2, .L3
	.section .rodata.str1.1,"aMS",@progbits,1
.LC1:
	.string	"hello, relocated world"
	.section .note.GNU-stack,"",@progbits
