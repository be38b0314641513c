#[fg=#36C2B4]●#[default] #[fg=#36C2B4]Working#[default] · #[fg=#A78BFA]unconfirmed#[default]
