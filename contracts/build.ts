/**
 * Compiles contracts/Rollup.sol (with the Inbox.sol and Outbox.sol it deploys) and contracts/CommitmentVerifier.sol with
 * solc-js and writes contracts/artifacts/rollup.ts (each contract's ABI `as const` and creation bytecode; only ABIs for
 * the inbox and outbox, which the rollup deploys itself), so the node never needs a
 * compiler at run time. Run with `npm run contracts`; build.test.ts recompiles in memory and fails when the
 * checked-in artifact is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const contractsDir = dirname(fileURLToPath(import.meta.url));
export const ROLLUP_SOURCE_PATH = join(contractsDir, 'Rollup.sol');
export const VERIFIER_SOURCE_PATH = join(contractsDir, 'CommitmentVerifier.sol');
export const INBOX_SOURCE_PATH = join(contractsDir, 'Inbox.sol');
export const OUTBOX_SOURCE_PATH = join(contractsDir, 'Outbox.sol');
export const ROLLUP_ARTIFACT_PATH = join(contractsDir, 'artifacts', 'rollup.ts');

/** Source unit names given to solc; they end up in the metadata hash, so they must not depend on the checkout path. */
const SOURCE_UNIT_NAME = 'Rollup.sol';
const VERIFIER_SOURCE_UNIT_NAME = 'CommitmentVerifier.sol';
const CONTRACT_NAME = 'Rollup';
const VERIFIER_CONTRACT_NAME = 'CommitmentVerifier';
const INBOX_SOURCE_UNIT_NAME = 'Inbox.sol';
const OUTBOX_SOURCE_UNIT_NAME = 'Outbox.sol';
const EVM_VERSION = 'cancun';
const OPTIMIZER_RUNS = 200;

interface SolcModule {
  compile(input: string): string;
  version(): string;
}

interface SolcMessage {
  severity: 'error' | 'warning' | 'info';
  formattedMessage: string;
}

interface SolcOutput {
  errors?: SolcMessage[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

export interface CompiledContract {
  readonly compilerVersion: string;
  readonly abi: readonly unknown[];
  /** Creation bytecode, 0x-prefixed. */
  readonly bytecode: `0x${string}`;
}

function loadSolc(): SolcModule {
  // solc-js is CommonJS; load it lazily so importing this module costs nothing until a compile is asked for.
  const require = createRequire(import.meta.url);
  return require('solc') as SolcModule;
}

export interface CompiledContracts {
  readonly rollup: CompiledContract;
  /** The epoch proof verifier the rollup is deployed with. */
  readonly verifier: CompiledContract;
  /** Deployed by the rollup's constructor; kept for their ABIs. */
  readonly inbox: CompiledContract;
  readonly outbox: CompiledContract;
}

/** Compiles Rollup.sol, CommitmentVerifier.sol, Inbox.sol and Outbox.sol (optimizer on, evmVersion cancun). */
export function compileContracts(
  rollupSource: string = readFileSync(ROLLUP_SOURCE_PATH, 'utf8'),
  verifierSource: string = readFileSync(VERIFIER_SOURCE_PATH, 'utf8'),
  inboxSource: string = readFileSync(INBOX_SOURCE_PATH, 'utf8'),
  outboxSource: string = readFileSync(OUTBOX_SOURCE_PATH, 'utf8'),
): CompiledContracts {
  const solc = loadSolc();
  const input = {
    language: 'Solidity',
    sources: {
      [SOURCE_UNIT_NAME]: { content: rollupSource },
      [VERIFIER_SOURCE_UNIT_NAME]: { content: verifierSource },
      [INBOX_SOURCE_UNIT_NAME]: { content: inboxSource },
      [OUTBOX_SOURCE_UNIT_NAME]: { content: outboxSource },
    },
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: OPTIMIZER_RUNS },
      outputSelection: {
        [SOURCE_UNIT_NAME]: { [CONTRACT_NAME]: ['abi', 'evm.bytecode.object'] },
        [VERIFIER_SOURCE_UNIT_NAME]: { [VERIFIER_CONTRACT_NAME]: ['abi', 'evm.bytecode.object'] },
        [INBOX_SOURCE_UNIT_NAME]: { Inbox: ['abi', 'evm.bytecode.object'] },
        [OUTBOX_SOURCE_UNIT_NAME]: { Outbox: ['abi', 'evm.bytecode.object'] },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const problems = (output.errors ?? []).filter((m) => m.severity !== 'info');
  if (problems.length > 0) {
    // Warnings fail the build too: a contract that compiles with warnings is not checked in.
    throw new Error(
      `solc reported problems compiling the contracts:\n${problems.map((m) => m.formattedMessage).join('\n')}`,
    );
  }
  const compiled = (unit: string, name: string): CompiledContract => {
    const contract = output.contracts?.[unit]?.[name];
    if (contract === undefined) throw new Error(`solc produced no ${name} contract`);
    return { compilerVersion: solc.version(), abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  };
  return {
    rollup: compiled(SOURCE_UNIT_NAME, CONTRACT_NAME),
    verifier: compiled(VERIFIER_SOURCE_UNIT_NAME, VERIFIER_CONTRACT_NAME),
    inbox: compiled(INBOX_SOURCE_UNIT_NAME, 'Inbox'),
    outbox: compiled(OUTBOX_SOURCE_UNIT_NAME, 'Outbox'),
  };
}

/** Compiles the contracts and returns the rollup's ABI and creation bytecode. */
export function compileRollup(): CompiledContract {
  return compileContracts().rollup;
}

/** The text of contracts/artifacts/rollup.ts for the compiled contracts. */
export function renderRollupArtifact(compiled: CompiledContracts): string {
  return [
    '// Generated by contracts/build.ts (`npm run contracts`) from contracts/Rollup.sol, Inbox.sol, Outbox.sol and CommitmentVerifier.sol.',
    '// Do not edit.',
    `// solc ${compiled.rollup.compilerVersion}, optimizer runs ${OPTIMIZER_RUNS}, evmVersion ${EVM_VERSION}.`,
    "import type { Hex } from 'viem';",
    '',
    `export const rollupAbi = ${JSON.stringify(compiled.rollup.abi, null, 2)} as const;`,
    '',
    `export const rollupBytecode: Hex = '${compiled.rollup.bytecode}';`,
    '',
    `export const commitmentVerifierAbi = ${JSON.stringify(compiled.verifier.abi, null, 2)} as const;`,
    '',
    `export const commitmentVerifierBytecode: Hex = '${compiled.verifier.bytecode}';`,
    '',
    '/** Deployed by the rollup (Rollup.getInbox()). */',
    `export const inboxAbi = ${JSON.stringify(compiled.inbox.abi, null, 2)} as const;`,
    '',
    '/** Deployed by the rollup (Rollup.getOutbox()). */',
    `export const outboxAbi = ${JSON.stringify(compiled.outbox.abi, null, 2)} as const;`,
    '',
  ].join('\n');
}

function main(): void {
  const text = renderRollupArtifact(compileContracts());
  writeFileSync(ROLLUP_ARTIFACT_PATH, text);
  process.stdout.write(`wrote ${ROLLUP_ARTIFACT_PATH} (${text.length} bytes)\n`);
}

const invokedPath = process.argv[1];
if (invokedPath !== undefined && import.meta.url === pathToFileURL(invokedPath).href) main();
