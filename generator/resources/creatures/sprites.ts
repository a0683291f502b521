/**
 * Sprite URLs of creatures and forms. The tree (schemas/output/sprites.ts) says which folder
 * each field's image is in; here is only how the upstream names the file inside a folder. A
 * file that the upstream sprite repository does not have makes the field null.
 *
 * File names use the upstream identifiers (`record.identifier`, `form_identifier`), not our
 * public names: they address the upstream's files, which keep the upstream's words.
 */
import { CREATURE_SPRITE_TREE, FORM_SPRITE_TREE, isSpriteLeaf, type SpriteLeaf, type SpriteTree } from '../../../schemas/output/sprites.ts';
import type { BuildContext } from '../context.ts';
import type { RecordOf } from '../../model/kinds.ts';

const ROOT = 'sprites/pokemon/';

export type SpriteValues<T extends SpriteTree> = {
  -readonly [K in keyof T]: T[K] extends SpriteLeaf ? string | null : T[K] extends SpriteTree ? SpriteValues<T[K]> : never;
};

/** Every field of `tree` filled with the URL of the file `fileIn` names in its folder. */
function fillTree<T extends SpriteTree>(tree: T, ctx: BuildContext, fileIn: (leaf: SpriteLeaf) => string): SpriteValues<T> {
  return Object.fromEntries(
    Object.entries(tree).map(([key, node]) => [key, isSpriteLeaf(node) ? ctx.sprite(ROOT + fileIn(node)) : fillTree(node, ctx, fileIn)]),
  ) as SpriteValues<T>;
}

const exists = (ctx: BuildContext, path: string) => ctx.sprite(ROOT + path) !== null;

/**
 * A creature's image is `{id}`. A variety (an identifier with a hyphen, e.g. `deoxys-attack`)
 * may instead have it as `{species id}-{suffix}` (`386-attack`); the upstream takes that name
 * in every folder that has no `{id}` file.
 */
export function creatureSprites(creature: RecordOf<'creature'>, ctx: BuildContext): SpriteValues<typeof CREATURE_SPRITE_TREE> {
  const hyphen = creature.identifier.indexOf('-');
  return fillTree(CREATURE_SPRITE_TREE, ctx, ({ folder, ext }) => {
    const byId = `${folder}${creature.id}.${ext}`;
    if (hyphen < 0 || exists(ctx, byId)) return byId;
    return `${folder}${creature.species_id}-${creature.identifier.slice(hyphen + 1)}.${ext}`;
  });
}

/**
 * A form without a form identifier shows its species' image, `{species id}`. A named form is
 * `{species id}-{form identifier}` (`201-b`); only a creature's default form may use the
 * creature's own `{creature id}` image, and does wherever that file exists.
 */
export function formSprites(form: RecordOf<'creature-form'>, ctx: BuildContext): SpriteValues<typeof FORM_SPRITE_TREE> {
  const speciesId = ctx.get('creature', form.creature_id).species_id;
  return fillTree(FORM_SPRITE_TREE, ctx, ({ folder, ext }) => {
    if (form.form_identifier === null) return `${folder}${speciesId}.${ext}`;
    const byCreature = `${folder}${form.creature_id}.${ext}`;
    if (form.is_default && exists(ctx, byCreature)) return byCreature;
    return `${folder}${speciesId}-${form.form_identifier}.${ext}`;
  });
}
