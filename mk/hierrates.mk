# hier: link rates in the cycle model, train and the watchdog (docs/reference/network.md "Link
# rate and latency"): rates honoured or refused, train = sim at both levels, legal long waits
# over slow links complete under the default watchdog, a deadlock on them still stops on it
t-hier-rates: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 tb/cli/test_hier_rates.sh $(BUILD)/multitree
TEST_STEPS += t-hier-rates
