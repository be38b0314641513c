we##rd #[fg=#F2B84B]▲#[default] #[fg=#F2B84B]Needs input#[default]
