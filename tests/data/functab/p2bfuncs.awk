# the Address, Size and MaxSize of each function perf2bolt --print-all
# prints after disassembly: "ADDR SIZE MAXSIZE NAME"
/^Binary Function ".*" / {
	ok = / after disassembly \{$/
	n = $0
	sub(/^Binary Function "/, "", n)
	sub(/" after disassembly \{$/, "", n)
	sub(/\(\*[0-9]+\)$/, "", n)
}
ok && /^  Address     :/ { a = $3; sub(/^0x/, "", a) }
ok && /^  Size        :/ { s = $3; sub(/^0x/, "", s) }
ok && /^  MaxSize     :/ { m = $3; sub(/^0x/, "", m); print a, s, m, n; ok = 0 }
