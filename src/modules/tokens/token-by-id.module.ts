import { Module } from '@nestjs/common';
import { TokenByIdController } from './token-by-id.controller';
import { TokensModule } from './tokens.module';

/** Imported after every module with static /api/token/* paths (see app.module). */
@Module({
  imports: [TokensModule],
  controllers: [TokenByIdController],
})
export class TokenByIdModule {}
