import type { AnyResource } from '../define.ts';
import { encounterCondition, encounterConditionValue, encounterMethod } from './encounter-vocabulary.ts';
import { generation } from './generation.ts';
import { language } from './language.ts';
import { locationArea } from './location-area.ts';
import { location } from './location.ts';
import { region } from './region.ts';
import { versionGroup } from './version-group.ts';
import { version } from './version.ts';

export const resources: AnyResource[] = [
  generation,
  version,
  versionGroup,
  region,
  language,
  location,
  locationArea,
  encounterMethod,
  encounterCondition,
  encounterConditionValue,
];
