import { Module } from '@nestjs/common';
import { UserByIdController } from './user-by-id.controller';
import { UsersModule } from './users.module';

/** Imported last by the app module so its `:id` route is matched after every static /api/user path. */
@Module({
  imports: [UsersModule],
  controllers: [UserByIdController],
})
export class UserByIdModule {}
