// A stand-in for a worker (run as its own process): makes a sandbox network holder, prints the pid
// of its bridges' first process and waits to be killed.
import { startNetworkHolder } from "@/lib/sandbox/network-holder";
import { getSandboxStatus } from "@/lib/sandbox/status";

const status = await getSandboxStatus();
if (!status.ok) throw new Error(status.reason);
const holder = await startNetworkHolder(status.host);
console.log(`holder ${holder.nsPath.split("/")[2]}`);
setInterval(() => {}, 60_000);
