/** Rules of the setup allow list text and of merging its layers, for all generated entries. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowListEntryIdentity,
  mergeAllowListLayers,
  parseAllowList,
  parseAllowListEntry,
  printAllowList,
  printAllowListEntry,
  SETUP_ALLOW_LIST_DEFAULTS,
  setupAllowListWith,
} from '../../spec/config/allowList.js';
import { allowListEntry, allowListExtension } from './configArbitraries.js';

describe('setup allow list (properties)', () => {
  it('an entry printed parses back to itself', () => {
    fc.assert(
      fc.property(allowListEntry, (entry) => {
        expect(parseAllowListEntry(printAllowListEntry(entry))).toEqual(entry);
      }),
    );
  });

  it('a list printed parses back to itself', () => {
    fc.assert(
      fc.property(fc.array(allowListEntry, { maxLength: 8 }), (entries) => {
        expect(parseAllowList(printAllowList(entries))).toEqual(entries);
      }),
    );
  });

  it('the text is read whatever the case of its hex, and printed in lowercase', () => {
    fc.assert(
      fc.property(allowListEntry, (entry) => {
        const text = printAllowListEntry(entry);
        const shouted = text.replace(/0x([0-9a-f]+)/g, (_m, digits: string) => `0x${digits.toUpperCase()}`);
        expect(printAllowListEntry(parseAllowListEntry(shouted))).toBe(text);
      }),
    );
  });

  it('the defaults always come first and unchanged, then each extension function once', () => {
    fc.assert(
      fc.property(allowListExtension, (extension) => {
        const merged = setupAllowListWith(extension);
        expect(merged.conflicts).toEqual([]);
        expect(merged.entries.slice(0, SETUP_ALLOW_LIST_DEFAULTS.length)).toEqual(SETUP_ALLOW_LIST_DEFAULTS);
        expect(merged.entries.slice(SETUP_ALLOW_LIST_DEFAULTS.length)).toEqual(extension);
      }),
    );
  });

  it('the local layer decides the flags of every function it names; the network layer keeps the others', () => {
    fc.assert(
      fc.property(
        allowListExtension,
        allowListExtension,
        fc.array(fc.boolean(), { maxLength: 6 }),
        (network, localOwn, reuse) => {
          // The local layer names some of the network's functions again, with its own flags, and some new ones.
          const reused = network.filter((_e, i) => reuse[i] === true).map((e) => ({ ...e, onlySelf: !e.onlySelf }));
          const networkIds = new Set(network.map(allowListEntryIdentity));
          const local = [...reused, ...localOwn.filter((e) => !networkIds.has(allowListEntryIdentity(e)))];
          const merged = mergeAllowListLayers([
            { name: 'network', entries: network },
            { name: 'local', entries: local },
          ]);
          expect(merged.conflicts).toEqual([]);
          const byId = new Map(merged.entries.map((e) => [allowListEntryIdentity(e), e]));
          expect(byId.size).toBe(merged.entries.length);
          for (const e of local) expect(byId.get(allowListEntryIdentity(e))).toEqual(e);
          for (const e of network)
            if (!local.some((l) => allowListEntryIdentity(l) === allowListEntryIdentity(e)))
              expect(byId.get(allowListEntryIdentity(e))).toEqual(e);
          expect(merged.entries.slice(0, network.length).map(allowListEntryIdentity)).toEqual(
            network.map(allowListEntryIdentity),
          );
        },
      ),
    );
  });
});
