import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OptionsModule } from '../options/options.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UserEntity } from '../users/entities/user.entity';
import { UsersModule } from '../users/users.module';
import { ScimTokenEntity } from './entities/scim-token.entity';
import { ScimGroupsService } from './scim-groups.service';
import { ScimHttpHandler } from './scim-http.handler';
import { ScimTokensController } from './scim-tokens.controller';
import { ScimTokensService } from './scim-tokens.service';
import { ScimUsersRepository } from './scim-users.repository';
import { ScimUsersService } from './scim-users.service';

/** SCIM 2.0 provisioning at /scim/v2 (Users and Groups), and root's tokens for it. */
@Module({
  imports: [TypeOrmModule.forFeature([ScimTokenEntity, UserEntity]), OptionsModule, SessionsModule, UsersModule],
  controllers: [ScimTokensController],
  providers: [ScimTokensService, ScimUsersRepository, ScimUsersService, ScimGroupsService, ScimHttpHandler],
})
export class ScimModule {}
