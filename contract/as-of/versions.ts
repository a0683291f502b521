/**
 * Which version group a path's `{v}` names: a version group (`red-blue`), a version (`firered`:
 * its group, `firered-leafgreen`), or a generation (`generation-iv`: its last version group by
 * `order`). Made once per build from the version groups' facts.
 */
import type { FactsFile } from './facts.ts';

/** A version group as the rules read it. */
export interface VersionGroup {
  id: number;
  name: string;
  order: number;
  generation: number;
}

export class Versions {
  private readonly byName = new Map<string, VersionGroup>();
  /** every version group's order by id */
  private readonly orders = new Map<number, number>();
  /** each generation's name and its last version group by order */
  private readonly lastOfGeneration = new Map<string, VersionGroup>();
  /** every version group, by order */
  readonly all: readonly VersionGroup[];
  /** each version group's versions' names, by its id */
  private readonly versionsOf = new Map<number, readonly string[]>();

  constructor(file: FactsFile<'version-group'>) {
    const groups = file.records.map(([id, facts]) => ({ id, facts, group: { id, name: facts.name, order: facts.order, generation: facts.generation } }));
    this.all = groups.map(({ group }) => group).sort((a, b) => a.order - b.order);
    for (const { id, group, facts } of groups) {
      this.orders.set(id, group.order);
      this.versionsOf.set(id, facts.versions);
    }
    // a version group's own name first, then its versions', then generations': a name taken stays taken
    for (const { group } of groups) this.claim(group.name, group);
    for (const { facts, group } of groups) for (const version of facts.versions) this.claim(version, group);
    for (const { facts, group } of [...groups].sort((a, b) => b.group.order - a.group.order)) {
      if (!this.lastOfGeneration.has(facts.generationName)) this.lastOfGeneration.set(facts.generationName, group);
      this.claim(facts.generationName, group);
    }
  }

  /** The version group `{v}` names; undefined when it names none. */
  resolve(v: string): VersionGroup | undefined {
    return this.byName.get(v);
  }

  /**
   * The names of the versions `{v}` stands for, in the version group it names (`resolve`): the
   * one version when it is a version's name, else every version of the group.
   */
  versionsNamed(v: string, vg: VersionGroup): readonly string[] {
    const versions = this.versionsOf.get(vg.id) ?? [];
    return versions.includes(v) ? [v] : versions;
  }

  /** Each generation (by name) with the version group its name stands for, oldest first. */
  generations(): Array<{ name: string; vg: VersionGroup }> {
    return [...this.lastOfGeneration].map(([name, vg]) => ({ name, vg })).sort((a, b) => a.vg.generation - b.vg.generation);
  }

  /** The version group of the newest games: what "today" is as of. */
  newest(): VersionGroup {
    const latest = this.all.at(-1);
    if (!latest) throw new Error('the build has no version groups');
    return latest;
  }

  /** Whether what came in the version group `born` (an id) existed as of `vg`; a group the build has none of is a fault (`owner` names what came in it). */
  cameBy(born: number, vg: VersionGroup, owner: string): boolean {
    const came = this.orders.get(born);
    if (came === undefined) throw new Error(`${owner}: version group ${born} has no as-of facts`);
    return came <= vg.order;
  }

  /** A version group's order by id; undefined for an id the build has no version group of. */
  orderOf(id: number): number | undefined {
    return this.orders.get(id);
  }

  private claim(name: string, group: VersionGroup): void {
    if (!this.byName.has(name)) this.byName.set(name, group);
  }
}
