/**
 * Mutants that no test can kill because they do not change what the code does (equivalent mutants), each with the
 * reason. A surviving mutant listed here leaves the folder's score (bench/mutation/mutationScopes.ts). An entry names
 * its mutant as the summary prints it, `file:line mutator -> replacement`: when the code moves, the entry stops
 * matching and the mutant shows up as a survivor again, to be judged anew.
 */
export interface EquivalentMutant {
  readonly mutant: string;
  readonly reason: string;
}

export const EQUIVALENT_MUTANTS: readonly EquivalentMutant[] = [
  {
    mutant: 'core/fees/feeBasis.ts:8 ConditionalExpression -> false',
    reason:
      'the chain store holds no checkpoint 0, so fetching it gives undefined: the genesis basis the shortcut gives',
  },
  {
    mutant: 'core/fees/feeBasis.ts:14 ConditionalExpression -> false',
    reason: 'a chain update holds no checkpoint 0 either, so fetching it gives the genesis basis as the shortcut does',
  },
  {
    mutant: 'core/fees/minFees.ts:29 EqualityOperator -> fee <= 1n',
    reason: 'at a fee of exactly 1 both branches give 1',
  },
  {
    mutant: 'core/fees/minFees.ts:29 ConditionalExpression -> false',
    reason: 'the rounded-up fee is below 1 only for a zero cost, and the floors (spec/constants.ts) are positive',
  },
  {
    mutant: 'core/fees/minFees.ts:57 EqualityOperator -> previous.manaUsed >= BigInt(CHECKPOINT_MANA_LIMIT)',
    reason: 'at exactly the limit both branches use the limit',
  },
  {
    mutant: 'core/fees/minFees.ts:63 EqualityOperator -> next <= floor.feePerL2Gas',
    reason: 'at exactly the floor both branches give the floor',
  },
  {
    mutant: 'core/merkle/appendOnlyTree.ts:62 BlockStatement -> {}',
    reason:
      'forgetting the by-content root memo changes no root, only whether a test recomputes it: the seam keeps a memo ' +
      'filled earlier from hiding a mutant of the root computation',
  },
  {
    mutant: 'core/merkle/appendOnlyTree.ts:76 ConditionalExpression -> false',
    reason:
      "a full tree's key then comes from the climb over its size's one set bit: height, size and frontier[height], " +
      'as unique as the full-tree key',
  },
  {
    mutant: 'core/merkle/appendOnlyTree.ts:78 ConditionalExpression -> true',
    reason:
      'the key then also names frontier nodes the root does not read: more specific, so the memo misses more, never ' +
      'answers wrongly',
  },
  {
    mutant: 'core/merkle/treeGeometry.ts:64 ConditionalExpression -> false',
    reason:
      'caching only: a geometry built again is equal to the cached one, so every bound on the cache gives the same pages',
  },
  {
    mutant: 'core/merkle/treeGeometry.ts:64 ConditionalExpression -> true',
    reason:
      'caching only: a geometry built again is equal to the cached one, so every bound on the cache gives the same pages',
  },
  {
    mutant: 'core/merkle/treeGeometry.ts:64 EqualityOperator -> knownGeometries.size <= KNOWN_GEOMETRIES_MAX',
    reason:
      'caching only: a geometry built again is equal to the cached one, so every bound on the cache gives the same pages',
  },
  {
    mutant: 'core/merkle/treeGeometry.ts:64 EqualityOperator -> knownGeometries.size >= KNOWN_GEOMETRIES_MAX',
    reason:
      'caching only: a geometry built again is equal to the cached one, so every bound on the cache gives the same pages',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:85 ArithmeticOperator -> level - 1',
    reason: 'levels[level + 1] is undefined at the top level, as the guard gives',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:85 ConditionalExpression -> true',
    reason: 'levels[level + 1] is undefined at the top level, as the guard gives',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:85 EqualityOperator -> level + 1 <= height',
    reason: 'levels[height] is undefined, as the guard gives',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:94 ConditionalExpression -> true',
    reason: "an empty list's last parent is undefined, never equal to a parent index",
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:94 EqualityOperator -> parents.length >= 0',
    reason: "an empty list's last parent is undefined, never equal to a parent index",
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:98 ArithmeticOperator -> at.idBase - pageIndex',
    reason:
      'a page looked up again when not needed is the same page; idBase - pageIndex is never -1 (pageIndex < idBase)',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:98 ConditionalExpression -> true',
    reason: 'looking the same page up again gives the same page',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:110 ArithmeticOperator -> up.idBase - upIndex',
    reason: 'a page looked up again when not needed is the same page; idBase - upIndex is never -1 (upIndex < idBase)',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:110 ConditionalExpression -> true',
    reason: 'writable() on a page already written returns the same copy',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:123 StringLiteral -> ""',
    reason: 'unreachable: a tree has at least one level, so the top pass always sets the root',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:147 ConditionalExpression -> true',
    reason: 'a new slab per page costs memory only: each page is still its own copy',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:152 ArithmeticOperator -> this.slabUsedBytes - bytes',
    reason: 'unreachable: the slab holds every base page and a draft copies each at most once',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:152 ConditionalExpression -> true',
    reason: 'unreachable: the slab holds every base page and a draft copies each at most once',
  },
  {
    mutant: 'core/merkle/pagedTreeDraft.ts:152 StringLiteral -> ""',
    reason: 'unreachable: the slab holds every base page and a draft copies each at most once',
  },
  {
    mutant: 'core/merkle/indexedLeaf.ts:141 ConditionalExpression -> true',
    reason: 'a fresh hash input each time instead of a reused one: the same bytes are hashed',
  },
  {
    mutant: 'core/merkle/sortedKeyIndex.ts:44 ConditionalExpression -> true',
    reason: 'unreachable: a placed key is always in its chunk (the assertion states an invariant)',
  },
  {
    mutant: 'core/merkle/sortedKeyIndex.ts:44 StringLiteral -> ""',
    reason: 'unreachable: a placed key is always in its chunk (the assertion states an invariant)',
  },
  {
    mutant: 'core/merkle/sortedKeyIndex.ts:34 ConditionalExpression -> false',
    reason: 'splitting a chunk bounds the cost of an insert, not its result: one chunk of every key answers the same',
  },
  {
    mutant: 'core/merkle/sortedKeyIndex.ts:34 ConditionalExpression -> true',
    reason: 'splitting a chunk bounds the cost of an insert, not its result: one chunk of every key answers the same',
  },
  {
    mutant: 'core/merkle/sortedKeyIndex.ts:34 EqualityOperator -> chunk.length <= SORTED_INDEX_CHUNK_KEYS_MAX',
    reason: 'splitting a chunk bounds the cost of an insert, not its result: one chunk of every key answers the same',
  },
  {
    mutant: 'core/merkle/sortedKeyIndex.ts:34 EqualityOperator -> chunk.length >= SORTED_INDEX_CHUNK_KEYS_MAX',
    reason: 'splitting a chunk bounds the cost of an insert, not its result: one chunk of every key answers the same',
  },
  {
    mutant: 'core/merkle/indexedLeaf.ts:77 EqualityOperator -> layout.value > 0',
    reason: 'the value offset is -1 (none) or 32, so > 0 and >= 0 agree',
  },
  {
    mutant: 'core/merkle/indexedLeaf.ts:106 EqualityOperator -> layout.value > 0',
    reason: 'the value offset is -1 (none) or 32, so > 0 and >= 0 agree',
  },
  {
    mutant: 'core/merkle/treeGeometry.ts:94 ConditionalExpression -> true',
    reason: 'with no preimage bytes, 2^depth x 0 is the 0 the guard gives',
  },
  {
    mutant: 'core/merkle/treeGeometry.ts:94 EqualityOperator -> preimageBytes >= 0',
    reason: 'with no preimage bytes, 2^depth x 0 is the 0 the guard gives',
  },
  {
    mutant: 'core/l1/l1TxFees.ts:56 EqualityOperator -> a <= b',
    reason: 'the smaller of two equal prices is either',
  },
  {
    mutant: 'core/l1/l1TxFees.ts:60 EqualityOperator -> a >= b',
    reason: 'the larger of two equal prices is either',
  },
  {
    mutant: 'core/l1/l1TxSender.ts:91 ConditionalExpression -> false',
    reason: "unreachable: a tracked record has its kind's fee shape, so only the cap refuses its replacement",
  },
  {
    mutant: 'core/l1/l1TxSender.ts:100 StringLiteral -> ``',
    reason: 'unreachable: each step past a nonce passes a tracked tx of the other kind, at most L1_TRACKED_TXS_MAX',
  },
  {
    mutant: 'spec/codec/blockHeader.ts:47 ConditionalExpression -> false',
    reason: 'unreachable: every field is written at its fixed width, so a header is always BLOCK_HEADER_BYTES long',
  },
  {
    mutant: 'spec/codec/blockHeader.ts:47 StringLiteral -> ``',
    reason: 'unreachable: every field is written at its fixed width, so a header is always BLOCK_HEADER_BYTES long',
  },
  {
    mutant: 'spec/codec/bytes.ts:35 ConditionalExpression -> false',
    reason: 'the fast path skipped: hexToBytes writes the same bytes or throws the same error',
  },
  {
    mutant: 'spec/codec/bytes.ts:36 ArithmeticOperator -> 2 - 2 * size',
    reason: 'a length that never matches sends every value to hexToBytes: the same bytes or the same error',
  },
  {
    mutant: 'spec/codec/bytes.ts:36 ArithmeticOperator -> 2 / size',
    reason: 'a length that never matches a valid value sends it to hexToBytes: the same bytes or the same error',
  },
  {
    mutant: 'spec/codec/bytes.ts:39 MethodExpression -> hex',
    reason: "Buffer's hex decoding stops at the prefix's x, so the value goes to hexToBytes: the same bytes",
  },
  {
    mutant: 'spec/codec/bytes.ts:40 BlockStatement -> {}',
    reason: "the fast path's bytes are written again by hexToBytes: the same bytes",
  },
  {
    mutant: 'spec/codec/bytes.ts:66 ConditionalExpression -> false',
    reason: 'decoding no bytes writes nothing and returns the same empty array',
  },
  {
    mutant: 'spec/codec/bytes.ts:74 EqualityOperator -> value < MAX_SAFE_BIGINT',
    reason: 'at exactly 2^53 - 1 the bigint path writes the same bytes',
  },
  {
    mutant: 'spec/codec/bytes.ts:77 ConditionalExpression -> true',
    reason: 'once the value is used up the loop writes zeros into zeroed bytes',
  },
  {
    mutant: 'spec/codec/bytes.ts:77 EqualityOperator -> v >= 0',
    reason: 'once the value is used up the loop writes zeros into zeroed bytes',
  },
  {
    mutant: 'spec/codec/bytes.ts:91 EqualityOperator -> bytes.length < SAFE_INTEGER_BYTES',
    reason: 'six bytes read by the hex path give the same value',
  },
  {
    mutant: 'spec/codec/bytes.ts:152 EqualityOperator -> needed < this.buffer.length',
    reason: 'growing a buffer a write fits exactly costs memory only: the written bytes are the same',
  },
  {
    mutant: 'spec/codec/bytes.ts:153 ArithmeticOperator -> this.buffer.length / 2',
    reason: 'the loop below doubles the capacity until the write fits, from any start',
  },
  {
    mutant: 'spec/codec/bytes.ts:154 EqualityOperator -> capacity <= needed',
    reason: 'a buffer one doubling larger holds the same bytes',
  },
  {
    mutant: 'spec/codec/tx.ts:91 StringLiteral -> ""',
    reason: "unreachable: the public calls' total is checked first, so no one list exceeds the bound",
  },
  {
    mutant: 'spec/codec/tx.ts:92 StringLiteral -> ""',
    reason: "unreachable: the public calls' total is checked first, so no one list exceeds the bound",
  },
  {
    mutant: 'spec/codec/tx.ts:93 StringLiteral -> ""',
    reason: 'unreachable: the teardown list holds at most one call',
  },
  {
    mutant: 'core/publicVm/interpreter.ts:122 StringLiteral -> ``',
    reason: 'unreachable: the assertion states an invariant (decodeProgram checks every register index)',
  },
  {
    mutant: 'core/publicVm/phaseExecutor.ts:226 ConditionalExpression -> true',
    reason: 'unreachable: the assertion states an invariant (the meter stops at the L2 gas limit less the base mana)',
  },
  {
    mutant: 'core/publicVm/phaseExecutor.ts:226 StringLiteral -> ""',
    reason: 'unreachable: the assertion states an invariant (the meter stops at the L2 gas limit less the base mana)',
  },
  {
    mutant: 'core/publicVm/phaseExecutor.ts:238 EqualityOperator -> balance > transactionFee',
    reason: 'at a balance equal to the fee both branches write zero',
  },
  {
    mutant: 'core/publicVm/phaseExecutor.ts:239 ConditionalExpression -> true',
    reason: 'unreachable: the assertion states an invariant (the journal reserves the balance slot)',
  },
  {
    mutant: 'core/publicVm/phaseExecutor.ts:239 StringLiteral -> ""',
    reason: 'unreachable: the assertion states an invariant (the journal reserves the balance slot)',
  },
  {
    mutant: 'core/publicVm/phaseExecutor.ts:241 StringLiteral -> ""',
    reason: 'unreachable: the assertion states an invariant (executePublicTx always passes three phases)',
  },
  {
    mutant: 'core/publicVm/phaseExecutor.ts:244 ConditionalExpression -> true',
    reason: 'unreachable: the assertion states an invariant (fixed-width fields: the balance does not change the size)',
  },
  {
    mutant: 'core/publicVm/phaseExecutor.ts:244 StringLiteral -> ""',
    reason: 'unreachable: the assertion states an invariant (fixed-width fields: the balance does not change the size)',
  },
  {
    mutant: 'core/txPool/admitTx.ts:66 ConditionalExpression -> true',
    reason: 'unreachable: the assertion states an invariant (the capacity step leaves room for the newcomer)',
  },
  {
    mutant: 'core/txPool/admitTx.ts:66 ArithmeticOperator -> pool.count - removed.length - 1',
    reason: 'unreachable: the assertion states an invariant (the capacity step leaves room for the newcomer)',
  },
  {
    mutant: 'core/txPool/admitTx.ts:66 StringLiteral -> ""',
    reason: 'unreachable: the assertion states an invariant (the capacity step leaves room for the newcomer)',
  },
  {
    mutant: 'core/txPool/admitTx.ts:84 StringLiteral -> ""',
    reason: 'unreachable: the assertion states an invariant (a conflicting tx shares a nullifier by definition)',
  },
  {
    mutant: 'core/txPool/admitTx.ts:109 ConditionalExpression -> false',
    reason: 'the shortcut only skips the walk: when the total fits, the walk keeps every tx as well',
  },
  {
    mutant: 'core/txPool/admitTx.ts:138 BlockStatement -> {}',
    reason:
      'a larger total only skips the shortcut more often: the walk, which leaves the removed txs out, decides the same',
  },
  {
    mutant: 'core/txPool/admitTx.ts:140 StringLiteral -> ``',
    reason: 'unreachable: the assertion states an invariant (the txs a decision removes are pooled)',
  },
  {
    mutant: 'core/txPool/admitTx.ts:141 AssignmentOperator -> total += removed.maxCost',
    reason:
      'a larger total only skips the shortcut more often: the walk, which leaves the removed txs out, decides the same',
  },
  {
    mutant: 'core/txPool/admitTx.ts:154 StringLiteral -> ""',
    reason: 'unreachable: the assertion states an invariant (a full pool has a lowest tx)',
  },
  {
    mutant: 'core/txPool/txPoolQueries.ts:88 EqualityOperator -> a <= b',
    reason: 'at equal fees both branches give the same fee',
  },
  {
    mutant: 'core/txPool/txPoolQueries.ts:92 EqualityOperator -> a >= b',
    reason: 'at equal fees both branches give the same fee',
  },
  {
    mutant: 'core/txPool/txPoolStore.ts:58 MethodExpression -> txPoolBatchOps(change)',
    reason: "a batch's later put of the next arrival sequence overwrites the earlier ones: storage ends the same",
  },
  {
    mutant: 'core/txPool/txPoolStore.ts:58 ConditionalExpression -> true',
    reason: "a batch's later put of the next arrival sequence overwrites the earlier ones: storage ends the same",
  },
  {
    mutant: 'core/txPool/pruneReturn.ts:106 StringLiteral -> ""',
    reason: 'unreachable: the assertion states an invariant (a full pool has a lowest tx)',
  },
  {
    mutant: 'core/txPool/pruneReturn.ts:129 ConditionalExpression -> false',
    reason: 'an empty change leaves the scratch pool as it is (its revision is private to the decision)',
  },
  {
    mutant: 'core/txPool/pruneReturn.ts:143 StringLiteral -> ``',
    reason: 'unreachable: the assertion states an invariant (conflicting txs share a nullifier by definition)',
  },
  {
    mutant: 'core/txPool/pruneReturn.ts:156 StringLiteral -> ``',
    reason: 'unreachable: the assertion states an invariant (every tx that leaves the scratch pool is given a reason)',
  },
  {
    mutant: 'core/txPool/pruneReturn.ts:174 StringLiteral -> ""',
    reason: 'unreachable: the assertion states an invariant (only returning txs are admitted to the scratch pool)',
  },
  {
    mutant: 'core/txPool/feePayerWalk.ts:31 ConditionalExpression -> true',
    reason:
      'unreachable: the assertion states an invariant (max costs are non-negative: priorityList.ts refuses a negative one)',
  },
  {
    mutant: 'core/txPool/feePayerWalk.ts:31 StringLiteral -> ""',
    reason:
      'unreachable: the assertion states an invariant (max costs are non-negative: priorityList.ts refuses a negative one)',
  },
  {
    mutant: 'core/txPool/txPool.ts:146 ConditionalExpression -> true',
    reason: 'unreachable: the assertion states an invariant (every pooled tx is in the order)',
  },
  {
    mutant: 'core/txPool/txPool.ts:146 StringLiteral -> ``',
    reason: 'unreachable: the assertion states an invariant (every pooled tx is in the order)',
  },
  {
    mutant: 'core/txPool/txPool.ts:188 BlockStatement -> {}',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:189 ConditionalExpression -> true',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:189 StringLiteral -> ""',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:190 ConditionalExpression -> true',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:190 StringLiteral -> ""',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:191 StringLiteral -> ""',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:196 ConditionalExpression -> true',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:196 StringLiteral -> ``',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:201 ConditionalExpression -> true',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:201 StringLiteral -> ``',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:205 ConditionalExpression -> true',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant:
      'core/txPool/txPool.ts:205 LogicalOperator -> pooled.arrivalSequence < this.nextSequence || !sequences.has(pooled.arrivalSeque',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:205 EqualityOperator -> pooled.arrivalSequence <= this.nextSequence',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:206 StringLiteral -> ""',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:210 ConditionalExpression -> true',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:210 StringLiteral -> ""',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:211 ConditionalExpression -> true',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:211 StringLiteral -> ""',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:216 BlockStatement -> {}',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:218 StringLiteral -> ``',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:221 ConditionalExpression -> true',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant:
      'core/txPool/txPool.ts:221 LogicalOperator -> listed.length === expected.length || listed.every((pooled, index) => pooled === ',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:221 MethodExpression -> listed.some((pooled, index) => pooled === expected[index])',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:222 StringLiteral -> ``',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:224 StringLiteral -> ``',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPool.ts:229 StringLiteral -> ``',
    reason: 'unreachable: the assertion states an invariant (the indexes name only pooled txs)',
  },
  {
    mutant: 'core/txPool/txPool.ts:263 StringLiteral -> ``',
    reason: "unreachable: the assertion states an invariant (a pooled tx's payer is indexed)",
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:161 ConditionalExpression -> true',
    reason: 'an empty batch writes nothing',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:161 EqualityOperator -> loaded.ops.length >= 0',
    reason: 'an empty batch writes nothing',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:203 ConditionalExpression -> true',
    reason: 'a change always writes the next arrival sequence, so its ops are never empty',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:203 EqualityOperator -> ops.length >= 0',
    reason: 'a change always writes the next arrival sequence, so its ops are never empty',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:277 ConditionalExpression -> true',
    reason:
      'grouping only: closing the open group early starts another, and every admission is decided in arrival order either way',
  },
  {
    mutant: "core/txPool/nodeTxPool.ts:532 ConditionalExpression -> case 'chainProven':",
    reason: 'chainProven falls out of the switch, which returns as its case does',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:290 ConditionalExpression -> true',
    reason: 'an empty batch writes nothing (no change gives no op)',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:290 EqualityOperator -> changes.length >= 0',
    reason: 'an empty batch writes nothing (no change gives no op)',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:309 ConditionalExpression -> true',
    reason: 'a validation made again on the same chain gives the same answer',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:356 BooleanLiteral -> false',
    reason:
      "validation's balance check refuses only a tx its payer cannot cover alone, which the pool's walk refuses too: ignore both ways",
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:424 ConditionalExpression -> false',
    reason: 'the chain store holds a block at a number only at or below the proposed tip',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:433 ConditionalExpression -> true',
    reason: 'an empty batch writes nothing (no kept tx gives no op)',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:433 EqualityOperator -> kept.length >= 0',
    reason: 'an empty batch writes nothing (no kept tx gives no op)',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:495 ConditionalExpression -> false',
    reason: 'caching only: the store gives the same block number the cache holds',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:498 ConditionalExpression -> true',
    reason: 'caching only: a bound on the cache changes when it is emptied, never an answer',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:498 ConditionalExpression -> false',
    reason: 'caching only: a bound on the cache changes when it is emptied, never an answer',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:498 EqualityOperator -> this.anchorNumbers.size > ANCHOR_NUMBERS_CACHED_MAX',
    reason: 'caching only: a bound on the cache changes when it is emptied, never an answer',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:498 EqualityOperator -> this.anchorNumbers.size < ANCHOR_NUMBERS_CACHED_MAX',
    reason: 'caching only: a bound on the cache changes when it is emptied, never an answer',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:507 ConditionalExpression -> true',
    reason: 'caching only: a bound on the cache changes when it is emptied, never an answer',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:507 ConditionalExpression -> false',
    reason: 'caching only: a bound on the cache changes when it is emptied, never an answer',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:507 EqualityOperator -> this.feePayerSlots.size > FEE_PAYER_SLOTS_CACHED_MAX',
    reason: 'caching only: a bound on the cache changes when it is emptied, never an answer',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:507 EqualityOperator -> this.feePayerSlots.size < FEE_PAYER_SLOTS_CACHED_MAX',
    reason: 'caching only: a bound on the cache changes when it is emptied, never an answer',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:544 ConditionalExpression -> true',
    reason: "a payer's balance read again in the same turn is the same",
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:601 ConditionalExpression -> false',
    reason: 'after a prune the chain store holds no block above it, so a known anchor is never above it',
  },
  {
    mutant: 'core/txPool/priorityList.ts:87 ConditionalExpression -> true',
    reason: 'unreachable: verify() checks invariants that apply() keeps, and no public call breaks them',
  },
  {
    mutant: 'core/txPool/txPriority.ts:54 EqualityOperator -> bump >= 1n',
    reason: 'at a bump of exactly 1 both branches add 1',
  },
  {
    mutant: 'core/txPool/txPriority.ts:59 EqualityOperator -> a.priorityFee >= b.priorityFee',
    reason: 'inside the branch the fees differ, so >= and > agree',
  },
  {
    mutant: 'core/txPool/txPriority.ts:62 EqualityOperator -> a.txHash <= b.txHash',
    reason: 'equal hashes returned 0 the line above',
  },
  {
    mutant: 'core/txPool/txPriority.ts:70 EqualityOperator -> a <= b',
    reason: 'at equal fees both branches give the same fee',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:608 ConditionalExpression -> true',
    reason: 'an empty batch writes nothing (no archived tx at or below the block gives no op)',
  },
  {
    mutant: 'core/txPool/nodeTxPool.ts:608 EqualityOperator -> ops.length >= 0',
    reason: 'an empty batch writes nothing (no archived tx at or below the block gives no op)',
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:135 ConditionalExpression -> false',
    reason: 'schedules one more pass over the waiting proposals; with none waiting, or stopped, it applies nothing',
  },
  {
    mutant:
      "core/archiver/proposedBlockFollower.ts:135 LogicalOperator -> (stopped || waiting.size === 0 || event.type === 'chainProven') && event.type ==",
    reason: 'schedules one more pass over the waiting proposals; with none waiting, or stopped, it applies nothing',
  },
  {
    mutant:
      "core/archiver/proposedBlockFollower.ts:135 LogicalOperator -> (stopped || waiting.size === 0) && event.type === 'chainProven'",
    reason: 'schedules one more pass over the waiting proposals; with none waiting, or stopped, it applies nothing',
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:135 LogicalOperator -> stopped && waiting.size === 0',
    reason: 'schedules one more pass over the waiting proposals; with none waiting, or stopped, it applies nothing',
  },
  {
    mutant:
      'core/archiver/syncStep.ts:434 MethodExpression -> Math.max(u.tips.checkpointed.checkpoint.number, l1Count)',
    reason: "above the tip the store holds no checkpoint, above L1's count L1 holds no archive: the loop passes both",
  },
  {
    mutant: 'core/archiver/syncStep.ts:438 ConditionalExpression -> true',
    reason: 'keep never exceeds the checkpointed tip, and the store holds every checkpoint up to it',
  },
  {
    mutant: 'core/archiver/syncStep.ts:444 ConditionalExpression -> true',
    reason: 'the store holds no checkpoint 0, so fetching it gives undefined, as the guard does',
  },
  // core/validators, part VB
  {
    mutant: 'core/validators/bls.ts:116 MethodExpression -> publicKey.toUpperCase()',
    reason:
      'a cache key only: upper- and lower-casing fold the same hex strings together, and the parse reads the original',
  },
  {
    mutant: 'core/validators/bls.ts:119 BlockStatement -> {}',
    reason: 'the emptied catch leaves the arrow returning undefined, as the return it held does',
  },
  {
    mutant: 'core/validators/bls.ts:126 MethodExpression -> publicKey.toUpperCase()',
    reason:
      'every verdict key, stored and looked up, is built by this one function, so any consistent case folding keys alike',
  },
  {
    mutant: 'core/validators/bls.ts:126 MethodExpression -> signature.toUpperCase()',
    reason:
      'every verdict key, stored and looked up, is built by this one function, so any consistent case folding keys alike',
  },
  {
    mutant: 'core/validators/bls.ts:140 MethodExpression -> signature.toUpperCase()',
    reason:
      'a cache key only: upper- and lower-casing fold the same hex strings together, and the parse reads the original',
  },
  {
    mutant: 'core/validators/bls.ts:143 BlockStatement -> {}',
    reason: 'the emptied catch leaves the arrow returning undefined, as the return it held does',
  },
  {
    mutant: 'core/validators/bls.ts:237 BooleanLiteral -> true',
    reason:
      'every signature aggregated was parsed with its subgroup check already, so checking again changes no result',
  },
  {
    mutant: 'core/validators/bls.ts:246 ConditionalExpression -> false',
    reason: 'blst answers false for an empty key list itself (the existing empty-list test passes under the mutant)',
  },
  {
    mutant: 'core/validators/bls.ts:250 BooleanLiteral -> true',
    reason: 'the aggregate was parsed with its subgroup check already, so checking again changes no result',
  },
  {
    mutant: 'core/validators/keystore.ts:106 Regex -> /\\./',
    reason: 'the zod path of an object root starts with a key, so the first dot is always the leading one',
  },
  {
    mutant: 'core/validators/offenses.ts:143 ConditionalExpression -> true',
    reason:
      'unreachable: record and restore keep records and byKey in step and within the bound, so the invariant never fails',
  },
  {
    mutant:
      'core/validators/offenses.ts:143 LogicalOperator -> this.records.length <= SLASH_OFFENSES_KEPT_MAX || this.byKey.size === this.recor',
    reason:
      'unreachable: both halves always hold (records and byKey kept in step, one dropped per one added past the bound)',
  },
  {
    mutant: 'core/validators/offenses.ts:144 StringLiteral -> ""',
    reason: 'the message of an invariant that never fails (see line 143)',
  },
  {
    mutant: 'core/validators/validatorStore.ts:96 ConditionalExpression -> false',
    reason:
      'every slot stats takes is reported in the same call (validatorClient), so with none the window has not moved: no op, and write skips an empty list',
  },
  {
    mutant: 'core/validators/validatorStore.ts:98 MethodExpression -> records',
    reason:
      'a record stats did not keep is put and then deleted in the same batch (its slot is not kept), so the store ends the same',
  },
  {
    mutant: 'core/validators/validatorStore.ts:108 ConditionalExpression -> true',
    reason:
      'unreachable: storedSlots is filtered by the stats window just above, which holds at most VALIDATOR_STATS_SLOT_WINDOW slots',
  },
  {
    mutant: 'core/validators/validatorStore.ts:108 StringLiteral -> ""',
    reason: 'the message of an invariant that never fails (see line 108)',
  },
  {
    mutant: 'core/validators/validatorStore.ts:118 ConditionalExpression -> false',
    reason: 'an empty batch writes nothing, with or without the flush',
  },
  {
    mutant: 'core/validators/committee.ts:117 MethodExpression -> v.address.toUpperCase()',
    reason: 'upper- and lower-casing fold the same addresses together, so the count of distinct addresses is the same',
  },
  {
    mutant: 'core/validators/devValidators.ts:60 ConditionalExpression -> true',
    reason: 'a publisher of undefined is dropped by JSON.stringify, so the file bytes are the same',
  },
  {
    mutant: 'core/validators/attestationPool.ts:121 UnaryOperator -> +1',
    reason: 'unreachable: the blockProposal rule only ever keys block proposals, so the other arm never runs',
  },
  {
    mutant: 'core/validators/attestationPool.ts:164 EqualityOperator -> slot < this.current',
    reason: 'advancing to the current slot keeps it and drops nothing: every held slot is already within the window',
  },
  {
    mutant: 'core/validators/attestationPool.ts:168 ConditionalExpression -> true',
    reason:
      'unreachable: after an advance the pool holds slots from the new oldest kept to at most the new current, 64 at most',
  },
  {
    mutant:
      'core/validators/attestationPool.ts:168 EqualityOperator -> this.slots.size < ATTESTATION_POOL_SLOTS_KEPT + ATTESTATION_POOL_FUTURE_SLOTS_MA',
    reason:
      'after an advance at most ATTESTATION_POOL_SLOTS_KEPT slots are held (none beyond the new current), below the 65 of the bound',
  },
  {
    mutant: 'core/validators/attestationPool.ts:169 StringLiteral -> ""',
    reason: 'the message of an invariant that cannot fail (see line 168)',
  },
  {
    mutant: 'core/validators/attestationPool.ts:267 ConditionalExpression -> true',
    reason:
      'unreachable: one proposer per slot, block indices below BLOCKS_PER_CHECKPOINT_MAX (codec) and committee members only, each with at most two payloads per duty, fill no list past its maximum',
  },
  {
    mutant: 'core/validators/attestationPool.ts:267 StringLiteral -> ``',
    reason: 'the message of an invariant that cannot fail (see line 267)',
  },
  {
    mutant: 'core/validators/attestationPool.ts:277 StringLiteral -> ""',
    reason:
      'the message of an assertion that cannot fail: each list only ever receives entries of its own kind (RULES)',
  },
  {
    mutant: 'core/validators/attestationPool.ts:294 StringLiteral -> ""',
    reason:
      'the message of an assertion that cannot fail: each list only ever receives entries of its own kind (RULES)',
  },
  {
    mutant: 'core/validators/attestationPool.ts:306 StringLiteral -> ""',
    reason:
      'the message of an assertion that cannot fail: each list only ever receives entries of its own kind (RULES)',
  },
  {
    mutant: 'core/validators/attestationPool.ts:326 StringLiteral -> ""',
    reason:
      'the message of an assertion that cannot fail: each list only ever receives entries of its own kind (RULES)',
  },
  // core/worldState, part WB
  {
    mutant: 'core/worldState/pageStore.ts:105 ConditionalExpression -> true',
    reason:
      'a page is cached already only if a read at the same latest block cached the same version (a commit ends isLatest)',
  },
  {
    mutant: 'core/worldState/pageStore.ts:120 ConditionalExpression -> false',
    reason: 'with no excess the eviction loop breaks before taking a page: nothing is evicted either way',
  },
  {
    mutant: 'core/worldState/pageStore.ts:120 EqualityOperator -> excess < 0',
    reason: 'with no excess the eviction loop breaks before taking a page: nothing is evicted either way',
  },
  {
    mutant: 'core/worldState/pageStore.ts:145 ConditionalExpression -> true',
    reason: 'the left operand only: with no live bytes no page of the slab is cached, so copying out copies nothing',
  },
  {
    mutant: 'core/worldState/pageStore.ts:145 EqualityOperator -> slab.liveBytes >= 0',
    reason: 'with no live bytes no page of the slab is cached, so copying out copies nothing',
  },
  {
    mutant: 'core/worldState/pageStore.ts:174 ConditionalExpression -> false',
    reason: 'a page owning its whole buffer becomes a slab with all bytes live: never copied on commit nor on drop',
  },
  {
    mutant: 'core/worldState/historicalPageCache.ts:91 ConditionalExpression -> false',
    reason: 'splicing the last version leaves an empty list under the page, which finds nothing, as no list does',
  },
  {
    mutant: 'core/worldState/indexedBatch.ts:97 EqualityOperator -> a.key <= b.key',
    reason: 'keys in a batch are distinct, and V8 sorts by whether the comparison is negative: the same order',
  },
  {
    mutant: 'core/worldState/indexedBatch.ts:97 ConditionalExpression -> true',
    reason: 'keys in a batch are distinct, and V8 sorts by whether the comparison is negative: the same order',
  },
  {
    mutant: 'core/worldState/indexedBatch.ts:97 ConditionalExpression -> false',
    reason: 'keys in a batch are distinct, and V8 sorts by whether the comparison is negative: the same order',
  },
  {
    mutant: 'core/worldState/indexedBatch.ts:97 EqualityOperator -> a.key >= b.key',
    reason: 'keys in a batch are distinct, and V8 sorts by whether the comparison is negative: the same order',
  },
  {
    mutant: 'core/worldState/genesisState.ts:49 ConditionalExpression -> true',
    reason: 'the genesis accounts (spec/genesis.ts) always number PUBLIC_DATA_TREE_PREFILL_LEAVES - 1: never fails',
  },
  {
    mutant: 'core/worldState/genesisState.ts:49 StringLiteral -> ""',
    reason: 'the genesis accounts (spec/genesis.ts) always number PUBLIC_DATA_TREE_PREFILL_LEAVES - 1: never fails',
  },
  // core/worldState, part WA (worldState.ts)
  {
    mutant: 'core/worldState/worldState.ts:159 ConditionalExpression -> false',
    reason:
      'abstract-level defers the operations on a store still opening until it is open: skipping open() changes nothing',
  },
  {
    mutant: 'core/worldState/worldState.ts:164 ConditionalExpression -> true',
    reason:
      'a store without the meta record holds no world-state key (genesis writes meta in the same batch), so the wipe deletes nothing',
  },
  {
    mutant: 'core/worldState/worldState.ts:451 ConditionalExpression -> false',
    reason: 'block 0 is only written by writeGenesis, which always runs with oldest = 0 (fresh engine or just wiped)',
  },
  {
    mutant: 'core/worldState/worldState.ts:485 BooleanLiteral -> false',
    reason: 'after apply() isFresh() is false anyway: a block moved latest on, an unwind bumped the generation',
  },
  {
    mutant: 'core/worldState/worldState.ts:518 ConditionalExpression -> false',
    reason:
      "caching only: a latest page not kept as latest is remembered as block `block`'s version, and is read again when needed",
  },
  {
    mutant: 'core/worldState/worldState.ts:518 ConditionalExpression -> true',
    reason: "readBlock is always the guard's own block: each load gets a guard made for the block it reads as of",
  },
  {
    mutant: 'core/worldState/worldState.ts:518 EqualityOperator -> readBlock !== block',
    reason: "never true (readBlock is the guard's block): as the false mutant, caching only",
  },
  {
    mutant: 'core/worldState/worldState.ts:519 ConditionalExpression -> false',
    reason: 'caching only: past pages are never kept in memory, every read of them goes to storage',
  },
  {
    mutant: 'core/worldState/worldState.ts:527 ConditionalExpression -> true',
    reason: 'writeGenesis only runs on a fresh engine or right after a wipe: latest is always -1',
  },
  {
    mutant: 'core/worldState/worldState.ts:527 StringLiteral -> ""',
    reason: 'the assertion never fails (writeGenesis only runs with latest = -1)',
  },
  {
    mutant: 'core/worldState/worldState.ts:696 MethodExpression -> pairs',
    reason: 'caching only: also evicting page ids equal to base versions makes those pages be read again from storage',
  },
  {
    mutant: 'core/worldState/worldState.ts:696 ConditionalExpression -> true',
    reason: 'caching only: also evicting page ids equal to base versions makes those pages be read again from storage',
  },
  {
    mutant: 'core/worldState/worldState.ts:709 EqualityOperator -> block < this.oldest',
    reason: 'at block = oldest the prune loop runs from oldest + 1 to oldest: nothing',
  },
  {
    mutant: 'core/worldState/worldState.ts:720 EqualityOperator -> p <= pairs.length',
    reason: 'at p = pairs.length, pairs[p + 1] is undefined and `undefined >= 0` is false: no delete',
  },
  {
    mutant: 'core/worldState/worldState.ts:821 BooleanLiteral -> true',
    reason: "the archive leaf's sibling path is read too and dropped: same answer",
  },
  {
    mutant: 'core/worldState/worldState.ts:894 BooleanLiteral -> true',
    reason: "the leaf's sibling path is read too and dropped: same answer",
  },
  {
    mutant: 'core/worldState/worldState.ts:984 BooleanLiteral -> true',
    reason: "the leaf's sibling path is read too and dropped: same answer",
  },
  {
    mutant: 'core/worldState/worldState.ts:879 StringLiteral -> ""',
    reason: "the genesis public data leaves are every slot's low leaf: the assertion never fails",
  },
  {
    mutant: 'core/worldState/worldState.ts:946 StringLiteral -> ``',
    reason:
      "summaryAt only misses a block inside a read whose block went away; read() then throws checkKept's error instead",
  },
  {
    mutant: 'core/worldState/worldState.ts:970 ConditionalExpression -> true',
    reason: "an append-only leaf's preimage (empty, preimageBytes = 0) is never used",
  },
  {
    mutant: 'core/worldState/worldState.ts:970 EqualityOperator -> geometry.preimageBytes >= 0',
    reason: "an append-only leaf's preimage (empty, preimageBytes = 0) is never used",
  },
  {
    mutant: 'core/worldState/worldState.ts:983 ConditionalExpression -> false',
    reason: 'a slot at or past the size as of the block is empty, so the all-zero check answers null as well',
  },
  {
    mutant: 'core/worldState/worldState.ts:983 EqualityOperator -> index > this.summaryAt(block)[treeId]!.size',
    reason: 'the slot at the size is empty, so the all-zero check answers null as well',
  },
  {
    mutant: 'core/worldState/worldState.ts:1016 ConditionalExpression -> false',
    reason: 'zero values are never stored as appended values (filtered out on write): the seek finds nothing',
  },
  // core/validators, part VA
  {
    mutant: 'core/validators/validatorClient.ts:281 LogicalOperator -> n >= 1 || n > top - ATTESTATION_POOL_SLOTS_KEPT',
    reason:
      'a checkpoint numbered top - KEPT or lower is of a slot before the first one recorded; below 1 none is stored',
  },
  {
    mutant: 'core/validators/validatorClient.ts:281 ConditionalExpression -> true',
    reason:
      'a checkpoint numbered top - KEPT or lower is of a slot before the first one recorded; below 1 none is stored',
  },
  {
    mutant: 'core/validators/validatorClient.ts:281 EqualityOperator -> n >= top - ATTESTATION_POOL_SLOTS_KEPT',
    reason:
      'a checkpoint numbered top - KEPT or lower is of a slot before the first one recorded; below 1 none is stored',
  },
  {
    mutant: 'core/validators/validatorClient.ts:196 ArithmeticOperator -> (this.stats.lastProcessedSlot ?? -1) - 1',
    reason:
      'record() ignores slots at or before the last recorded one: starting two slots earlier records nothing more',
  },
  {
    mutant: 'core/validators/validatorClient.ts:244 ConditionalExpression -> false',
    reason: 'without a proposer find compares each address string to undefined: none matches, the same undefined',
  },
  {
    mutant: 'core/validators/validatorClient.ts:255 ConditionalExpression -> false',
    reason:
      'at a negative slot the pool (at slot 0 or later) does not move and statsSlotsEnd is 0: nothing is recorded',
  },
  {
    mutant: 'core/validators/validatorClient.ts:255 EqualityOperator -> slot <= 0',
    reason: 'at slot 0 the pool is already at slot 0 and statsSlotsEnd is 0: nothing to move or record',
  },
  {
    mutant: 'core/validators/validatorClient.ts:260 ConditionalExpression -> false',
    reason: 'with statsFromSlot at or past the end the record loop runs no iteration; only chain reads are added',
  },
  {
    mutant: 'core/validators/validatorClient.ts:260 EqualityOperator -> this.statsFromSlot > end',
    reason: 'at statsFromSlot === end the record loop runs no iteration',
  },
  {
    mutant: 'core/validators/validatorClient.ts:284 ConditionalExpression -> false',
    reason: 'checkpoints of slots below fromSlot are kept but never looked up: recording starts at fromSlot or later',
  },
  {
    mutant: 'core/validators/validatorClient.ts:330 ConditionalExpression -> true',
    reason: 'waking the quorum wait on more messages only makes it check the pool again',
  },
  {
    mutant:
      "core/validators/validatorClient.ts:330 LogicalOperator -> message.kind === 'checkpointAttestation' || outcome.kind === 'added' || outcome.",
    reason: 'waking the quorum wait on more messages only makes it check the pool again',
  },
  {
    mutant: 'core/validators/validatorClient.ts:386 ConditionalExpression -> false',
    reason: "unreachable: attest runs for payloads the pool admitted, which needs the slot's cached duties",
  },
  {
    mutant: 'core/validators/validatorClient.ts:392 ConditionalExpression -> true',
    reason:
      'held proposals are of past or current slots only (others are refused notCurrentSlot): all but this one are older',
  },
  {
    mutant: 'core/validators/validatorClient.ts:392 EqualityOperator -> slot <= payload.slot',
    reason: "the current slot's entry is deleted and then set again on the next line",
  },
  {
    mutant: 'core/validators/validatorClient.ts:435 ConditionalExpression -> false',
    reason: 'memory only: request sets are read for the current slot only, and the slot never goes back',
  },
  {
    mutant: 'core/validators/validatorClient.ts:467 ConditionalExpression -> true',
    reason: "gossipVerdictOf answers 'reject' only for a rejected outcome",
  },
  {
    mutant: 'core/validators/validatorClient.ts:551 StringLiteral -> "Stryker was here!"',
    reason: 'the message shows only when the outcome is rejected, which takes the other branch',
  },
  {
    mutant: 'core/validators/stats.ts:78 ConditionalExpression -> false',
    reason: 'the union with an empty set of L1 attesters has the same members',
  },
  {
    mutant: 'core/validators/stats.ts:175 ConditionalExpression -> true',
    reason: 'filtering when no kept slot is older than the window keeps every slot and entry',
  },
  {
    mutant: 'core/validators/stats.ts:175 EqualityOperator -> this.slots[0]! <= oldestKept',
    reason: 'at equality the filter keeps every slot and entry',
  },
  {
    mutant: 'core/validators/stats.ts:180 ConditionalExpression -> true',
    reason:
      'the assertion cannot fail: the filter above keeps at most a window of slots of at most 1 + COMMITTEE_SIZE duties',
  },
  {
    mutant:
      'core/validators/stats.ts:180 LogicalOperator -> this.slots.length <= VALIDATOR_STATS_SLOT_WINDOW || this.entries.length <= ENTRI',
    reason: 'the assertion cannot fail: both bounds always hold',
  },
  {
    mutant: 'core/validators/stats.ts:181 StringLiteral -> ""',
    reason: 'the message of an assertion that cannot fail',
  },
  {
    mutant: 'core/validators/stats.ts:195 EqualityOperator -> a <= b',
    reason: 'the compared addresses are distinct map keys, never equal',
  },
  {
    mutant: 'core/validators/stats.ts:195 ConditionalExpression -> true',
    reason: 'the compared addresses are distinct map keys: a > b whenever a < b fails',
  },
  {
    mutant: 'core/validators/stats.ts:195 ConditionalExpression -> false',
    reason:
      "the comparator's 1 and 0 differ only for Array.sort, which (V8) tests only < 0; a property test checks order",
  },
  {
    mutant: 'core/validators/stats.ts:195 EqualityOperator -> a >= b',
    reason: 'the compared addresses are distinct map keys, never equal',
  },
  {
    mutant: 'core/validators/validatorDuties.ts:93 ConditionalExpression -> true',
    reason: 'headReadSlot is set only after a read that set the set: the third operand is always true when it matters',
  },
  {
    mutant:
      'core/validators/validatorDuties.ts:170 MethodExpression -> `${v.address}/${v.blsPublicKey}/${v.proofOfPossession}`.toUpperCase()',
    reason: 'upper-casing tells apart the same entries as lower-casing: the key only needs one case',
  },
  // core/archiver, part AR2
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:98 BlockStatement -> {}',
    reason: "dropping passed slots only frees memory: applyWaiting reads the current slot's list only",
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:99 ArrayDeclaration -> []',
    reason: "dropping passed slots only frees memory: applyWaiting reads the current slot's list only",
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:99 ConditionalExpression -> false',
    reason: "dropping passed slots only frees memory: applyWaiting reads the current slot's list only",
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:107 ConditionalExpression -> true',
    reason: 'an empty list gives findIndex -1 and the loop returns at once',
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:107 EqualityOperator -> candidates.length >= 0',
    reason: 'an empty list gives findIndex -1 and the loop returns at once',
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:143 ConditionalExpression -> false',
    reason:
      '(the `stopped || slot < now` operand) a past or post-stop proposal is held but never tried: dropped by the next applyWaiting, the loop checks stopped',
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:143 LogicalOperator -> stopped && slot < now',
    reason: "a past slot's proposal is held but never tried: applyWaiting drops passed slots first",
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:143 ConditionalExpression -> false',
    reason: '(the `stopped` operand) after stop the loop never runs and chain events schedule nothing',
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:167 ConditionalExpression -> false',
    reason: 'candidates come from waiting.get(slot), keyed by their payload slot, and slot is what is passed',
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:167 StringLiteral -> ""',
    reason: 'unreachable: candidates are always of the slot passed in',
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:258 ConditionalExpression -> true',
    reason: 'inboxLeaves is read only for the first block of a checkpoint (messages and inHash check)',
  },
  {
    mutant: 'core/archiver/proposedBlockFollower.ts:284 ConditionalExpression -> true',
    reason: "a later block's inHash is zero (checked above) and so is inboxTreeHash of its empty leaves",
  },
  {
    mutant: 'core/archiver/settlement.ts:50 EqualityOperator -> finalized.number <= at.number',
    reason: 'at equality both branches give the same block number',
  },
  {
    mutant: 'core/archiver/settlement.ts:82 ConditionalExpression -> false',
    reason: 'checkpoint proven + 1 is above checkpointed then: getCheckpoint returns undefined and nothing is pruned',
  },
  {
    mutant: 'core/archiver/settlement.ts:82 EqualityOperator -> u.tips.checkpointed.checkpoint.number < proven',
    reason: 'at equality checkpoint proven + 1 is not held: getCheckpoint returns undefined',
  },
  {
    mutant: 'core/archiver/settlement.ts:111 ConditionalExpression -> false',
    reason: 'with no block above checkpointed, getBlock(checkpointed + 1) is undefined and nothing is dropped',
  },
  {
    mutant:
      'core/archiver/settlement.ts:135 LogicalOperator -> tip.checkpoint.number === proven.checkpoint.number || tip.block.hash === proven.block.hash',
    reason: 'a prune moves proven to a kept checkpoint: same number iff same last block hash',
  },
  {
    mutant: 'core/archiver/settlement.ts:135 ConditionalExpression -> true',
    reason: '(the hash operand) a prune moves proven to a kept checkpoint: same number implies same hash',
  },
  {
    mutant: 'core/archiver/settlement.ts:138 EqualityOperator -> tip.checkpoint.number <= proven.checkpoint.number',
    reason: 'equal numbers mean the same tip, which returned above',
  },
  {
    mutant: 'core/archiver/archiverMachine.ts:77 ConditionalExpression -> true',
    reason: 'xstate drops sendBack of a stopped callback actor: the failure never reaches the machine',
  },
  {
    mutant: 'core/archiver/archiverMachine.ts:84 ConditionalExpression -> true',
    reason: 'clearing an unset timer is a no-op (ClockPort.clearTimeout, like the global)',
  },
  {
    mutant: 'core/archiver/archiverMachine.ts:96 ObjectLiteral -> {}',
    reason: 'types only: no runtime effect',
  },
  // core/archiver, part AR1
  {
    mutant: 'core/archiver/syncStep.ts:91 EqualityOperator -> lastInStep <= head.number',
    reason: 'when the step ends at the head, reading that L1 block again answers the head itself',
  },
  {
    mutant: 'core/archiver/syncStep.ts:93 ConditionalExpression -> false',
    reason: 'when the listing ends at the step end, reading that L1 block again answers the step end itself',
  },
  {
    mutant: 'core/archiver/syncStep.ts:181 ConditionalExpression -> false',
    reason: 'with nothing stale and no messages the update stages no writes: skipping it or not leaves the same state',
  },
  {
    mutant: 'core/archiver/syncStep.ts:194 EqualityOperator -> a.blockNumber <= b.blockNumber',
    reason: 'the comparison runs only when the block numbers differ, where < and <= agree',
  },
  {
    mutant: 'core/archiver/syncStep.ts:267 ConditionalExpression -> false',
    reason: 'unreachable: only proposals above the tip eventsToApply predicts (never below the real one) get blobs',
  },
  {
    mutant: 'core/archiver/syncStep.ts:267 EqualityOperator -> log.checkpointNumber < checkpointedNumber',
    reason: 'unreachable: only proposals above the tip eventsToApply predicts (never below the real one) get blobs',
  },
  {
    mutant: 'core/archiver/syncStep.ts:267 BooleanLiteral -> true',
    reason: 'unreachable: only proposals above the tip eventsToApply predicts (never below the real one) get blobs',
  },
];

/** Whether a mutant, as the summary prints it, is listed as equivalent. */
export function isEquivalent(mutant: string, equivalents: readonly EquivalentMutant[]): boolean {
  return equivalents.some((entry) => entry.mutant === mutant);
}
