# A chain of re-parenting children, deeper than any sweep, that never ends.
#
#     perl chain.pl MARKER DEPTH
#
# Each link forks the next in a session of its own and exits, so the next is re-parented (to
# init, or to a subreaper); after DEPTH links the chain says so on a pipe and the command
# itself exits, while the chain goes on re-parenting forever. MARKER only names the processes
# (in their command line) for the test to look for. Perl, not Python: a fork is ~50x cheaper.
use strict;
use warnings;
use POSIX ();

my ($marker, $depth) = @ARGV;
pipe(my $read, my $write) or die "pipe: $!";
my $first = fork() // die "fork: $!";
if ($first == 0) {
    close($read);
    for (1 .. $depth) {
        my $pid = fork() // die "fork: $!";
        POSIX::_exit(0) if $pid;    # this link ends; its child is re-parented
        POSIX::setsid();
    }
    syswrite($write, "deep");
    close($write);
    while (1) {
        select(undef, undef, undef, 0.005);
        my $pid = fork() // next;
        POSIX::_exit(0) if $pid;
        POSIX::setsid();
    }
}
close($write);
my $said = "";
sysread($read, $said, 4);
print $said eq "deep" ? "deep\n" : "broken\n";
exit($said eq "deep" ? 0 : 1);
