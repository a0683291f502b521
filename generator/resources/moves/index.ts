import type { AnyResource } from '../define.ts';
import { contestEffect, contestType, superContestEffect } from './contests.ts';
import { machine } from './machine.ts';
import { move } from './move.ts';
import { moveAilment, moveBattleStyle, moveCategory, moveDamageClass, moveLearnMethod, moveTarget } from './move-classifications.ts';

export const resources: AnyResource[] = [
  move,
  moveAilment,
  moveBattleStyle,
  moveCategory,
  moveDamageClass,
  moveLearnMethod,
  moveTarget,
  machine,
  contestType,
  contestEffect,
  superContestEffect,
];
