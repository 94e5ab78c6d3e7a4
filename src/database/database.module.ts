import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { RawSql } from './raw-sql';
import { SqliteCheckpointerService } from './sqlite-checkpointer.service';
import { Transactions } from './transactions';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...buildDataSourceOptions(config), autoLoadEntities: true }),
    }),
  ],
  providers: [Transactions, RawSql, SqliteCheckpointerService],
  exports: [Transactions, RawSql],
})
export class DatabaseModule {}
