import { Injectable } from '@nestjs/common';
import { OptionsService } from '../options/options.service';
import { usableGroups } from '../users/usable-groups';
import { AbilitiesRepository } from './abilities.repository';

@Injectable()
export class UserModelsService {
  constructor(
    private readonly abilities: AbilitiesRepository,
    private readonly options: OptionsService,
  ) {}

  /** Models an enabled channel serves in any group the user may use. */
  modelsFor(userGroup: string): Promise<string[]> {
    return this.abilities.enabledModelsInGroups(Object.keys(usableGroups(this.options, userGroup)));
  }
}
