#!/usr/bin/perl
# randev.pl: a profpipe-events(5) stream of random samples with branch
# stacks, for the perfdecode tests; tests/tools/mkperfdata turns it into
# perf.data in every layout (it is the tree's one perf.data writer).
# The process "bench" (pid 4242) maps /tmp/bench at 0x400000 and forks
# 4243; the samples alternate between the two, every tenth has an empty
# branch stack, the entries' addresses, flags and types are random.
#
#   randev.pl [--samples N] [--branches N] [--two] [--buildid] [--addr]
#             [--lost N] [--seed N]
#
# --two puts every third sample on a second event ("instructions")
# without branch stacks; --buildid gives the mapping a build-id (bytes
# 01..14) and a buildid record; --addr gives every sample a data address;
# --lost adds a lost record of N events after the sixth sample.  The same
# options and seed give the same stream.
use strict;
use warnings;
use Getopt::Long;

my ($n, $nb, $two, $bid, $addr, $lost, $seed) = (50, 8, 0, 0, 0, 0, 1);
GetOptions('samples=i' => \$n, 'branches=i' => \$nb, 'two' => \$two,
    'buildid' => \$bid, 'addr' => \$addr, 'lost=i' => \$lost,
    'seed=i' => \$seed) && !@ARGV
    or die "usage: randev.pl [--samples N] [--branches N] [--two] " .
    "[--buildid] [--addr] [--lost N] [--seed N]\n";
srand($seed);

my $B = '0102030405060708090a0b0c0d0e0f1011121314';
my ($pid, $t) = (4242, 1000000000);
my @flags = ('-', 'M', 'P');
# no type twice as often as each of the four others
my @types = ('', '', '/COND', '/UNCOND', '/CALL', '/RET');

print "# profpipe-events 2\n# event=cycles\n";
print "# event=instructions\n" if $two;
print "comm $pid $pid ", $t++, " 1 bench\n";
print "mmap $pid $pid ", $t++, " 400000 2000 0 r-xp ", $bid ? $B : '-',
    " /tmp/bench\n";
print "buildid $pid $B /tmp/bench\n" if $bid;
printf "fork %d %d %d %d %d\n", $pid + 1, $pid, $pid + 1, $pid, $t;
for my $i (0 .. $n - 1) {
	$t += 1000 + int(rand(100));
	my $ev = $two && $i % 3 == 2 ? 'instructions' : 'cycles';
	my $p = $pid + $i % 2;
	my $l = sprintf "sample %d %d %d %s %x %s", $p, $p, $t, $ev,
	    0x400100 + int(rand(0x1000)),
	    $addr ? sprintf('%x', 0xdead0000 + $i) : '-';
	if ($ev eq 'cycles' && $i % 10) {
		for (1 .. $nb) {
			$l .= sprintf " %x/%x/%s%s",
			    0x400000 + int(rand(0x2000)),
			    0x400000 + int(rand(0x2000)),
			    $flags[int(rand(3))], $types[int(rand(6))];
		}
	}
	print "$l\n";
	print "lost $lost\n" if $i == 5 && $lost;
}
printf "exit %d %d %d %d %d\n", $pid + 1, $pid, $pid + 1, $pid, $t + 5;
