// boxoffice scripts
