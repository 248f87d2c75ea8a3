#!/usr/bin/perl
# perf2events.pl: turn `perf script --ns -F pid,tid,time,event,ip[,brstack]`
# output (with --show-mmap-events --show-task-events if wanted) into
# profpipe-events(5) lines, so that the perfdecode tests compare against
# perf itself.  Only spacing and number notation change: 0x is dropped,
# seconds.nanoseconds become nanoseconds, brstack entries keep from, to,
# the M/P/- flag and the branch type (perf 6.1 prints in_tx, abort and
# cycles too; perfdecode does not).  --noflags drops the flag and type
# (perf 6.1 loses branch flags for big-endian pipe files).  The stream is
# version 2: a sample's data address follows its ip, '-' unless --addr
# says perf script was given -F ...,addr (which it prints before ip).
use strict;
use warnings;

my ($noflags, $addr) = (0, 0);
while (@ARGV && $ARGV[0] =~ /^--(noflags|addr)$/) {
	$noflags = 1 if $ARGV[0] eq '--noflags';
	$addr = 1 if $ARGV[0] eq '--addr';
	shift;
}

sub ns { my $v = $_[0] . $_[1]; $v =~ s/^0+(?=\d)//; return $v; }
sub hx { my $v = $_[0]; $v =~ s/^0x//; return $v; }

while (my $l = <STDIN>) {
	chomp $l;
	if ($l =~ /^\s*(-?\d+)\/(-?\d+)\s+(\d+)\.(\d+):\s+PERF_RECORD_(FORK|EXIT)\((-?\d+):(-?\d+)\):\((-?\d+):(-?\d+)\)$/) {
		print lc($5), " $6 $8 $7 $9 ", ns($3, $4), "\n";
		next;
	}
	if ($l =~ /^\s*(-?\d+)\/(-?\d+)\s+(\d+)\.(\d+):\s+PERF_RECORD_(\S+?):?\s+(.*)$/) {
		my ($t, $kind, $rest) = (ns($3, $4), $5, $6);
		if ($kind eq 'MMAP2' && $rest =~ /^(-?\d+)\/(-?\d+): \[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ (\S+) (?:<([0-9a-f]+)>|\S+ \d+ \d+)\]: (\S{4}) (.*)$/) {
			print "mmap $1 $2 $t $3 $4 ", hx($5), " $7 ",
			    defined $6 ? $6 : '-', " $8\n";
		} elsif ($kind eq 'MMAP' && $rest =~ /^(-?\d+)\/(-?\d+): \[0x([0-9a-f]+)\(0x([0-9a-f]+)\) @ (\S+)\]: (\S) (.*)$/) {
			print "mmap $1 $2 $t $3 $4 ", hx($5), " ",
			    $6 eq 'x' ? '--x-' : 'r---', " - $7\n";
		} elsif ($kind eq 'COMM' && $rest =~ /^(exec: )?(.*):(-?\d+)\/(-?\d+)$/) {
			print "comm $3 $4 $t ", $1 ? 1 : 0, " $2\n";
		}
		next;
	}
	my $re = $addr ?
	    qr/^\s*(-?\d+)\/(-?\d+)\s+(\d+)\.(\d+):\s+(\S+):\s+([0-9a-f]+)\s+([0-9a-f]+)\s*(.*)$/ :
	    qr/^\s*(-?\d+)\/(-?\d+)\s+(\d+)\.(\d+):\s+(\S+):\s+()([0-9a-f]+)\s*(.*)$/;
	if ($l =~ $re) {
		my $out = "sample $1 $2 " . ns($3, $4) . " $5 $7 " .
		    ($addr ? $6 : '-');
		for my $b (split ' ', $8) {
			my @f = split /\//, $b, -1;
			my $e = hx($f[0]) . '/' . hx($f[1]);
			if (!$noflags) {
				$e .= "/$f[2]";
				$e .= "/$f[6]" if defined $f[6] && $f[6] ne '';
			}
			$out .= " $e";
		}
		print "$out\n";
	}
}
