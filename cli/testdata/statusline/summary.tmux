#[fg=#36C2B4]●2#[default] #[fg=#8E96A3]○1#[default] #[fg=#F2B84B]◆5#[default] #[fg=#5B8DEF]◐1#[default] #[fg=#75C98D]⇡1#[default]
