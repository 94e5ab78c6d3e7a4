import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Not, Repository, SelectQueryBuilder } from 'typeorm';
import { USER_STATUS_ENABLED, UserEntity } from '../users/entities/user.entity';

/** A condition of a Users filter, already mapped onto a column. */
export type UserCondition =
  | { column: 'id'; value: number }
  | { column: 'username' | 'email' | 'scim_external_id'; value: string }
  | { column: 'active'; value: boolean };

/** A user as a group's member list shows it. */
export interface GroupMember {
  id: number;
  username: string;
}

/** The account queries SCIM needs beyond UsersService: filtered pages, uniqueness against others, group members. */
@Injectable()
export class ScimUsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  /** Accounts that are not deleted, matching every condition, by id. */
  async page(conditions: readonly UserCondition[], offset: number, limit: number): Promise<[UserEntity[], number]> {
    const query = this.users.createQueryBuilder('user');
    conditions.forEach((condition, index) => this.where(query, condition, `value${index}`));
    const total = await query.getCount();
    if (limit === 0) return [[], total];
    return [await query.orderBy('user.id', 'ASC').skip(offset).take(limit).getMany(), total];
  }

  private where(query: SelectQueryBuilder<UserEntity>, condition: UserCondition, parameter: string): void {
    switch (condition.column) {
      case 'id':
        query.andWhere(`user.id = :${parameter}`, { [parameter]: condition.value });
        break;
      case 'username':
        // userName is not case-exact in SCIM, and usernames are unique regardless of case.
        query.andWhere(`LOWER(user.username) = LOWER(:${parameter})`, { [parameter]: condition.value });
        break;
      case 'email':
        query.andWhere(`user.email = :${parameter}`, { [parameter]: condition.value.toLowerCase() });
        break;
      case 'scim_external_id':
        query.andWhere(`user.scim_external_id = :${parameter}`, { [parameter]: condition.value });
        break;
      case 'active':
        query.andWhere(condition.value ? `user.status = :${parameter}` : `user.status <> :${parameter}`, { [parameter]: USER_STATUS_ENABLED });
        break;
    }
  }

  /** Whether another account (deleted ones included: they keep their name) has this username, regardless of case. */
  async usernameTakenByOther(username: string, id: number): Promise<boolean> {
    const count = await this.users.createQueryBuilder('user').withDeleted().where('LOWER(user.username) = LOWER(:username)', { username }).andWhere('user.id <> :id', { id }).getCount();
    return count > 0;
  }

  /** Whether another account (deleted ones included) has this e-mail address. */
  async emailTakenByOther(email: string, id: number): Promise<boolean> {
    return (await this.users.count({ where: { email: email.toLowerCase(), id: Not(id) }, withDeleted: true })) > 0;
  }

  /** The accounts in a group, by id. */
  membersOf(group: string): Promise<GroupMember[]> {
    return this.users.find({ select: { id: true, username: true }, where: { group }, order: { id: 'ASC' } });
  }
}
