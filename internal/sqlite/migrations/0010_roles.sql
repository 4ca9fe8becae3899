-- 0010_roles: what an account may do (admin: everything; staff: the door),
-- and the version its sessions signed in at: a change of password or role
-- moves it on, which signs those sessions out. Accounts made before are
-- admins.
ALTER TABLE admins ADD COLUMN role TEXT NOT NULL DEFAULT 'admin' CHECK (role IN ('admin', 'staff'));
ALTER TABLE admins ADD COLUMN session_version INTEGER NOT NULL DEFAULT 0;
