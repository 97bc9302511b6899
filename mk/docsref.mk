# mk/docsref.mk: the reference pages generated from the tool, and the docs lint.
#   make docs-gen       rewrite docs/reference/cli.md (every --help) and config.md (shape --keys)
#                       from build/multitree (scripts/gen_docs.sh); commit the result
#   t-docs-generated    fails when the committed pages differ from the generator's output, and
#                       shows that stale copies are caught (tb/lint/test_docs_generated.sh)
#   t-lint-docs         no work-diary lines in docs/, every relative link and every docs/ path
#                       named in the code exists (scripts/lint_docs.sh, also run by make lint);
#                       broken copies must fail (tb/lint/test_lint_docs.sh)
.PHONY: docs-gen
docs-gen: $(BUILD)/multitree
	scripts/gen_docs.sh $(BUILD)/multitree docs/reference
t-docs-generated: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 tb/lint/test_docs_generated.sh $(BUILD)/multitree
t-lint-docs:
	@scripts/runbench.sh $@ 120 tb/lint/test_lint_docs.sh
TEST_STEPS += t-docs-generated t-lint-docs
