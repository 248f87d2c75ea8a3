# pastend.awk SIZES FDATA: every line of FDATA (fdata lines) has an end in
# a function at an offset at or past that function's size; SIZES holds
# "name size" (llvm-nm -S, hex), names without their /file/N suffix.
# Prints the lines that do not and exits 1 if there are any.
function hex(s,  i, v) {
	v = 0
	s = tolower(s)
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
	return v
}
FILENAME == ARGV[1] { size[$1] = hex($2); next }
{
	past = 0
	for (k = 2; k <= 5; k += 3) {
		n = $k
		sub(/\/.*/, "", n)
		if ($(k - 1) == 1 && (n in size) && hex($(k + 1)) >= size[n])
			past = 1
	}
	if (!past) {
		print "not past the end:", $0
		bad++
	}
}
END { exit bad > 0 }
