# share.awk: the classifier of share.sh. It reads `perf script -F
# ip,sym,dso` with call chains (one frame a line, a blank line after each
# sample, the sample's own frame first) and puts each sample in one class:
# kernel (a system call, or kernel frames only), app (a frame of main., of
# github.com/vireo-go/vireo, or matching the regular expression fw), net/http
# (a frame of net/http, net/textproto or net/url), runtime (the rest). It
# prints each class's samples and shares of all and of user-space samples.
function flush() {
	if (n == 0) return
	if (sys || (kern && !user)) c = "kernel"
	else if (app) c = "app"
	else if (nh) c = "net/http"
	else c = "runtime"
	count[c]++; all++
	n = 0; sys = 0; kern = 0; user = 0; app = 0; nh = 0
}
/^[ \t]*$/ { flush(); next }
{
	n++
	if ($0 ~ /kallsyms/) {
		kern = 1
		if ($0 ~ /entry_SYSCALL/) sys = 1
		next
	}
	user = 1
	if ($0 ~ /[ \t]main\.|vireo-go\/vireo/ || (fw != "" && $0 ~ fw)) app = 1
	if ($0 ~ /[ \t]net\/http\.|net\/textproto\.|net\/url\./) nh = 1
}
END {
	flush()
	users = all - count["kernel"]
	printf "%-9s %8s %8s %10s\n", "class", "samples", "of all", "of user"
	split("kernel app net/http runtime", order, " ")
	for (i = 1; i <= 4; i++) {
		k = order[i]
		if (k == "kernel") u = "-"; else u = sprintf("%.1f%%", 100 * count[k] / users)
		printf "%-9s %8d %7.1f%% %10s\n", k, count[k], 100 * count[k] / all, u
	}
}
