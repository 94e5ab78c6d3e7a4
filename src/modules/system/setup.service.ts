import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { APP_CONFIG, AppConfig, DatabaseType } from '../../config/app-config';
import { AppError } from '../../common/errors/app-error';
import { logText } from '../logs/log-text';
import { Transactions } from '../../database/transactions';
import { QuotaLedgerService } from '../billing/quota-ledger.service';
import { nowSeconds } from '../../database/columns';
import { OptionsService } from '../options/options.service';
import { USERNAME_PATTERN } from '../users/dto/fields';
import { ROLE_ROOT } from '../users/entities/user.entity';
import { UsersService } from '../users/users.service';
import { SetupDto } from './dto/setup.dto';
import { SetupEntity } from './entities/setup.entity';

/** The super administrator starts with this much quota so a self-hosted install works at once. */
const ROOT_INITIAL_QUOTA = 100_000_000;

export interface SetupStatus {
  status: boolean;
  root_init: boolean;
  database_type: DatabaseType;
}

@Injectable()
export class SetupService implements OnModuleInit {
  private initialised = false;

  constructor(
    @InjectRepository(SetupEntity) private readonly repository: Repository<SetupEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly options: OptionsService,
    private readonly transactions: Transactions,
    private readonly ledger: QuotaLedgerService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.isInitialised();
  }

  /** Once true it stays true; until then another instance may have run the setup, so ask the database. */
  async isInitialised(): Promise<boolean> {
    if (!this.initialised) this.initialised = (await this.repository.countBy({ id: 1 })) > 0;
    return this.initialised;
  }

  /** Sign-in and registration wait for the administrator to exist. */
  async assertInitialised(): Promise<void> {
    if (!(await this.isInitialised())) throw new AppError('setup.not_initialized');
  }

  async status(): Promise<SetupStatus> {
    return { status: await this.isInitialised(), root_init: await this.users.rootExists(), database_type: this.config.database.type };
  }

  async setup(dto: SetupDto): Promise<void> {
    if (await this.isInitialised()) throw new AppError('setup.already_initialized');
    const rootExists = await this.users.rootExists();
    const username = dto.username?.trim() ?? '';
    if (!rootExists) {
      if (!username) throw new AppError('setup.username_required');
      if (username.length > 12) throw new AppError('user.username_too_long');
      if (!USERNAME_PATTERN.test(username)) throw new AppError('user.username_invalid');
      if (!dto.password || dto.password.length < 8) throw new AppError('setup.password_too_short');
      if (dto.password.length > 20) throw new AppError('user.password_length');
      if (dto.password !== dto.confirmPassword) throw new AppError('setup.password_mismatch');
    }
    const passwordHash = rootExists ? '' : await this.users.hashPassword(dto.password!);
    await this.transactions.run(async (manager) => {
      // The setups row (id 1) is the lock: a second concurrent setup fails on its primary key.
      if ((await manager.countBy(SetupEntity, { id: 1 })) > 0) throw new AppError('setup.already_initialized');
      if (!rootExists) {
        if (await this.users.usernameTaken(username, manager)) throw new AppError('user.username_taken');
        const root = await this.users.create({ username, passwordHash, role: ROLE_ROOT, display_name: 'Root User' }, manager);
        const text = logText('root_initial_quota', { quota: ROOT_INITIAL_QUOTA });
        await this.ledger.applyDelta({ userId: root.id, username, reason: 'new_user', quota: ROOT_INITIAL_QUOTA, text }, manager);
      }
      await manager.insert(SetupEntity, { id: 1, version: this.config.version, initialized_at: nowSeconds() });
    });
    await this.options.setMany(
      { SelfUseModeEnabled: dto.SelfUseModeEnabled === true, DemoSiteEnabled: dto.DemoSiteEnabled === true },
      ROLE_ROOT,
    );
    this.initialised = true;
  }
}

