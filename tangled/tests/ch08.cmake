# 第 8 章：attn-params 与练习程序 attn-ch08
attn_program_test(NAME ch08-params-gpt2 LABEL ch08
  EXPECT "W_Q +590592" "W_K +590592" "W_V +590592" "W_O +590592"
         "attention +2362368" "mlp +4722432" "norms +3072" "layer +7087872"
         "embedding +38597376" "positions +786432" "layers +85054464" "final_norm +1536"
         "unembedding +0[^0-9]" "total +124439808"
         "attention_flops +38654705664" "kv_bytes_token +36864" "kv_bytes_ctx +37748736"
  COMMAND attn-params --preset gpt2-small)
attn_program_test(NAME ch08-params-gpt3 LABEL ch08
  EXPECT "total +174604259328" "positions +25165824" "attention_flops +19791209299968"
         "kv_bytes_token +4718592" "kv_bytes_ctx +9663676416"
  COMMAND attn-params --preset gpt3-175b)
attn_program_test(NAME ch08-params-gpt3-video LABEL ch08
  EXPECT "W_Q +150994944" "attention +603979776" "mlp_all +115964116992"
         "unembedding +617558016" "total +175181291520"
  COMMAND attn-params --preset gpt3-175b --biases 0 --layer-norms 0 --positions 0 --tied 0)
attn_program_test(NAME ch08-params-json LABEL ch08
  EXPECT "\"total\": 124439808" "\"attention\": 2362368" "\"tied\": true"
  COMMAND attn-params --preset gpt2-small --json)
attn_program_test(NAME ch08-params-bad-option LABEL ch08 EXIT 2 EXPECT "用法" REJECT "total"
  COMMAND attn-params --heads 12)
attn_program_test(NAME ch08-params-bad-preset LABEL ch08 EXIT 2 EXPECT "用法" "不认识的预设"
  COMMAND attn-params --preset gpt5)
attn_program_test(NAME ch08-params-bad-flag LABEL ch08 EXIT 2 EXPECT "用法" "0 或 1"
  COMMAND attn-params --tied 2)
attn_program_test(NAME ch08-params-zero LABEL ch08 EXIT 2 EXPECT "用法"
  COMMAND attn-params --d-model 0)
attn_program_test(NAME ch08-params-overflow LABEL ch08 EXIT 2 EXPECT "64 位"
  COMMAND attn-params --n-heads 1000000 --d-head 1000000 --n-layers 1000000)
attn_program_test(NAME ch08-params-help LABEL ch08 EXPECT "--preset" "--json"
  COMMAND attn-params --help)
attn_program_test(NAME ch08-ex-heads LABEL ch08 EXPECT "注意力参数 1050624"
  COMMAND attn-ch08 heads --d-model 512 --heads 64)
attn_program_test(NAME ch08-ex-heads-8 LABEL ch08 EXPECT "注意力参数 1050624"
  COMMAND attn-ch08 heads)
attn_program_test(NAME ch08-ex-heads-bad LABEL ch08 EXIT 2 EXPECT "用法"
  COMMAND attn-ch08 heads --heads 3)
attn_program_test(NAME ch08-ex-context LABEL ch08
  EXPECT "参数 125226240" "FLOP 154618822656" "缓存 75497472 字节"
  COMMAND attn-ch08 context --n-ctx 2048)
attn_program_test(NAME ch08-ex-context-bad LABEL ch08 EXIT 2 EXPECT "用法"
  COMMAND attn-ch08 context --n-ctx -5)
attn_program_test(NAME ch08-ex-untie LABEL ch08 EXPECT "total +163037184"
  COMMAND attn-params --preset gpt2-small --tied 0)
attn_program_test(NAME ch08-ex-value LABEL ch08 EXPECT "完整 589824，分解 98304，倍数 6.00"
  COMMAND attn-ch08 value --d-model 768 --d-head 64)
attn_program_test(NAME ch08-ex-value-gpt3 LABEL ch08 EXPECT "倍数 48.00"
  COMMAND attn-ch08 value)
attn_program_test(NAME ch08-ex-bytes LABEL ch08
  EXPECT "kv_bytes_token +9437184" "kv_bytes_ctx +19327352832"
  COMMAND attn-params --preset gpt3-175b --bytes 4)
attn_program_test(NAME ch08-ex-unknown LABEL ch08 EXIT 2 EXPECT "用法"
  COMMAND attn-ch08 heds)
