import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { LogDatabase } from './log-database';
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
  providers: [
    Transactions,
    RawSql,
    SqliteCheckpointerService,
    { provide: LogDatabase, inject: [APP_CONFIG, DataSource, RawSql], useFactory: (config: AppConfig, main: DataSource, mainSql: RawSql) => LogDatabase.open(config, main, mainSql) },
  ],
  exports: [Transactions, RawSql, LogDatabase],
})
export class DatabaseModule {}
