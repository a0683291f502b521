import type { AnyResource } from '../define.ts';
import { berry, berryFirmness, berryFlavor } from './berry.ts';
import { currency } from './currency.ts';
import { item } from './item.ts';
import { itemAttribute, itemCategory, itemFlingEffect, itemPocket } from './item-traits.ts';

export const resources: AnyResource[] = [item, itemAttribute, itemCategory, itemFlingEffect, itemPocket, berry, berryFirmness, berryFlavor, currency];
